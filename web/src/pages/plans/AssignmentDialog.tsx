import { Alert, Button, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { type UpdateAssignmentBody, useDeleteAssignment, useUpdateAssignment } from "../../data/comp-plans/mutations";
import type { Assignment } from "../../data/comp-plans/queries";
import { useFields } from "../../lib/fields";
import { date } from "../../lib/format";
import { today } from "../../lib/periods";
import {
  type AssignmentValues,
  assignmentBody,
  assignmentErrors,
  assignmentProblems,
} from "../../ui/plan-assignment/assignment-form";
import { OverlapNotice } from "../../ui/plan-assignment/OverlapNotice";
import { QuotaOverride } from "../../ui/plan-assignment/QuotaOverride";

export type DialogMode = "end" | "edit" | "delete";

const TITLES: Record<DialogMode, string> = {
  end: "End the assignment",
  edit: "Change the assignment",
  delete: "Delete the assignment",
};

/** One assignment's end date, its dates and quota override, or its deletion; closes once the API agreed. */
export function AssignmentDialog(props: {
  mode: DialogMode;
  assignment: Assignment;
  name: string;
  currency: string;
  /** The plan has tiers: a quota override must be above zero. */
  tiered: boolean;
  /** An override plan: it has no quota to override (API.md §16). */
  override?: boolean;
  onClose: () => void;
}) {
  const { mode, assignment: a, name, currency, tiered, override, onClose } = props;
  const update = useUpdateAssignment();
  const remove = useDeleteAssignment();
  const pending = update.isPending || remove.isPending;
  const [problems, setProblems] = useState<Record<string, string>>({});
  const sent = assignmentErrors(update.error ?? remove.error);
  const fields = Object.keys(problems).length > 0 ? problems : sent.fields;
  const form = useFields<AssignmentValues>(
    {
      user_id: a.user_id,
      effective_from: a.effective_from,
      effective_to: a.effective_to ?? (mode === "end" ? today() : ""),
      quota_override: a.quota_override ?? "",
    },
    fields,
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (mode === "delete") {
      await remove.mutateAsync(a.id);
    } else {
      const found = assignmentProblems(form.values, tiered, currency);
      if (mode === "end" && form.values.effective_to === "") found.effective_to = "Pick the last day in force.";
      setProblems(found);
      if (Object.keys(found).length > 0) return;
      const { user_id: _, ...edit } = assignmentBody(form.values);
      const body: UpdateAssignmentBody = mode === "end" ? { effective_to: form.values.effective_to } : edit;
      await update.mutateAsync({ id: a.id, body });
    }
    onClose();
  };

  return (
    <Modal opened onClose={onClose} title={`${TITLES[mode]}: ${name}`} centered>
      <form onSubmit={(e) => void submit(e).catch(() => {})} noValidate>
        <Stack>
          {mode === "delete" ? (
            <Text size="sm">
              {name}'s assignment from {date(a.effective_from)} is removed as if it never was; their pending lines in
              its span are recalculated. To keep the history, end it instead.
            </Text>
          ) : (
            <>
              {mode === "edit" && (
                <TextInput
                  type="date"
                  label="Effective from"
                  {...form.text("effective_from")}
                  error={fields.effective_from ?? sent.overlap}
                />
              )}
              <TextInput
                type="date"
                label={mode === "end" ? "Last day in force" : "Effective to"}
                description={mode === "edit" ? "Empty: open-ended" : undefined}
                data-autofocus
                {...form.text("effective_to")}
                error={fields.effective_to ?? (mode === "end" ? fields.effective_from : undefined) ?? sent.overlap}
              />
              {mode === "edit" && !override && <QuotaOverride currency={currency} {...form.value("quota_override")} />}
            </>
          )}
          {update.variables && (
            <OverlapNotice
              error={update.error}
              userId={a.user_id}
              who={name}
              planId={a.plan_id}
              span={{
                effective_from: update.variables.body.effective_from ?? a.effective_from,
                effective_to:
                  update.variables.body.effective_to === undefined
                    ? a.effective_to
                    : update.variables.body.effective_to,
              }}
              except={a.id}
            />
          )}
          {sent.form && (
            <Alert color="red" role="alert">
              {sent.form.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" loading={pending} color={mode === "delete" ? "red.8" : undefined}>
              {mode === "delete" ? "Delete" : mode === "end" ? "End assignment" : "Save"}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
