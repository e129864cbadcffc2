import { Alert, Button, Group, Select, SimpleGrid, Stack, TextInput, Title } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { useCreateAssignment } from "../../data/comp-plans/mutations";
import type { CompPlan } from "../../data/comp-plans/queries";
import type { User as Person } from "../../data/users/queries";
import { useFields } from "../../lib/fields";
import {
  type AssignmentValues,
  assignmentBody,
  assignmentErrors,
  assignmentProblems,
} from "../../ui/plan-assignment/assignment-form";
import { OverlapNotice } from "../../ui/plan-assignment/OverlapNotice";
import { QuotaOverride } from "../../ui/plan-assignment/QuotaOverride";

/** Assigns the plan to a person from a date (to a date, or open-ended), with their own quota if given. */
export function AddAssignmentForm({ plan, users }: { plan: CompPlan; users: Person[] }) {
  const create = useCreateAssignment();
  const [problems, setProblems] = useState<Record<string, string>>({});
  const sent = assignmentErrors(create.error);
  const errors = Object.keys(problems).length > 0 ? problems : sent.fields;
  const blank = { user_id: null, effective_to: "", quota_override: "" };
  const form = useFields<AssignmentValues>({ ...blank, effective_from: plan.effective_from }, errors);
  const options = users.filter((u) => u.active).map((u) => ({ value: u.id, label: `${u.name} (${u.email})` }));
  const asked = create.variables?.body;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = assignmentProblems(form.values, plan.tiers.length > 0, plan.currency);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    await create.mutateAsync({ planId: plan.id, body: assignmentBody(form.values) });
    form.setValues((values) => ({ ...values, ...blank }));
  };

  return (
    <form onSubmit={(e) => void submit(e).catch(() => {})} noValidate aria-label="Add an assignment">
      <Stack gap="xs">
        <Title order={4} size="h5">
          Add an assignment
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
          <Select
            label="Person"
            placeholder="Pick someone"
            data={options}
            searchable
            required
            comboboxProps={{ withinPortal: true }}
            {...form.value("user_id")}
          />
          <TextInput
            type="date"
            label="Effective from"
            required
            {...form.text("effective_from")}
            error={errors.effective_from ?? sent.overlap}
          />
          <TextInput
            type="date"
            label="Effective to"
            description="Empty: open-ended"
            {...form.text("effective_to")}
            error={errors.effective_to ?? sent.overlap}
          />
          {plan.kind !== "override" && <QuotaOverride currency={plan.currency} {...form.value("quota_override")} />}
        </SimpleGrid>
        {asked && (
          <OverlapNotice
            error={create.error}
            userId={asked.user_id}
            who={users.find((u) => u.id === asked.user_id)?.name ?? "This person"}
            planId={plan.id}
            span={{ effective_from: asked.effective_from, effective_to: asked.effective_to ?? null }}
          />
        )}
        {sent.form && (
          <Alert color="red" role="alert">
            {sent.form.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            Add assignment
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
