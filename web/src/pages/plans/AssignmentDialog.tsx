import { Alert, Button, Group, Modal, NumberInput, Stack, Text, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { type UpdateAssignmentBody, useDeleteAssignment, useUpdateAssignment } from "../../data/comp-plans/mutations";
import type { Assignment } from "../../data/comp-plans/queries";
import { date } from "../../lib/format";
import { assignmentErrors } from "./assignmentErrors";

export type DialogMode = "end" | "edit" | "delete";

const TITLES: Record<DialogMode, string> = {
  end: "End the assignment",
  edit: "Change the assignment",
  delete: "Delete the assignment",
};

/** Today as a calendar date in the browser's zone (the default end of an assignment). */
function today(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** One assignment's end date, its dates and quota override, or its deletion; closes once the API agreed. */
export function AssignmentDialog(props: {
  mode: DialogMode;
  assignment: Assignment;
  name: string;
  currency: string;
  onClose: () => void;
}) {
  const { mode, assignment: a, name, currency, onClose } = props;
  const [from, setFrom] = useState(a.effective_from);
  const [to, setTo] = useState(a.effective_to ?? (mode === "end" ? today() : ""));
  const [quota, setQuota] = useState<number | string>(a.quota_override ?? "");
  const update = useUpdateAssignment();
  const remove = useDeleteAssignment();
  const pending = update.isPending || remove.isPending;
  const { fields, form } = assignmentErrors(update.error ?? remove.error);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (mode === "delete") {
      await remove.mutateAsync(a.id);
    } else {
      const body: UpdateAssignmentBody =
        mode === "end"
          ? { effective_to: to }
          : {
              effective_from: from,
              effective_to: to === "" ? null : to,
              quota_override: quota === "" ? null : Number(quota),
            };
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
                  value={from}
                  onChange={(e) => setFrom(e.currentTarget.value)}
                  error={fields.effective_from}
                />
              )}
              <TextInput
                type="date"
                label={mode === "end" ? "Last day in force" : "Effective to"}
                description={mode === "edit" ? "Empty: open-ended" : undefined}
                value={to}
                onChange={(e) => setTo(e.currentTarget.value)}
                error={fields.effective_to ?? (mode === "end" ? fields.effective_from : undefined)}
                data-autofocus
              />
              {mode === "edit" && (
                <NumberInput
                  label="Quota override"
                  description={`Empty: the plan's quota (${currency})`}
                  value={quota}
                  onChange={setQuota}
                  decimalScale={2}
                  min={0}
                  thousandSeparator=","
                  error={fields.quota_override}
                />
              )}
            </>
          )}
          {form && (
            <Alert color="red" role="alert">
              {form.message}
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
