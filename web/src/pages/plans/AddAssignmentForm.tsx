import { Alert, Button, Group, Select, SimpleGrid, Stack, TextInput, Title } from "@mantine/core";
import type { FormEvent } from "react";
import { useCreateAssignment } from "../../data/comp-plans/mutations";
import type { CompPlan } from "../../data/comp-plans/queries";
import type { User as Person } from "../../data/users/queries";
import { useFields } from "../../lib/fields";
import { assignmentBody, assignmentErrors, QuotaOverride } from "./assignmentForm";

/** Assigns the plan to a person from a date (to a date, or open-ended), with their own quota if given. */
export function AddAssignmentForm({ plan, users }: { plan: CompPlan; users: Person[] }) {
  const create = useCreateAssignment(plan.id);
  const { fields, form: refusal } = assignmentErrors(create.error);
  const blank = { user_id: null as string | null, effective_to: "", quota_override: "" as number | string };
  const form = useFields({ ...blank, effective_from: plan.effective_from }, fields);
  const options = users.filter((u) => u.active).map((u) => ({ value: u.id, label: `${u.name} (${u.email})` }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await create.mutateAsync(assignmentBody(form.values));
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
          <TextInput type="date" label="Effective from" required {...form.text("effective_from")} />
          <TextInput type="date" label="Effective to" description="Empty: open-ended" {...form.text("effective_to")} />
          <QuotaOverride currency={plan.currency} {...form.value("quota_override")} />
        </SimpleGrid>
        {refusal && (
          <Alert color="red" role="alert">
            {refusal.message}
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
