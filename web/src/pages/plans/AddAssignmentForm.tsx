import { Alert, Button, Group, NumberInput, Select, SimpleGrid, Stack, TextInput, Title } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { useCreateAssignment } from "../../data/comp-plans/mutations";
import type { CompPlan } from "../../data/comp-plans/queries";
import type { User as Person } from "../../data/users/queries";
import { assignmentErrors } from "./assignmentErrors";

/** Assigns the plan to a person from a date (to a date, or open-ended), with their own quota if given. */
export function AddAssignmentForm({ plan, users }: { plan: CompPlan; users: Person[] }) {
  const [userId, setUserId] = useState<string | null>(null);
  const [from, setFrom] = useState(plan.effective_from);
  const [to, setTo] = useState("");
  const [quota, setQuota] = useState<number | string>("");
  const create = useCreateAssignment(plan.id);
  const { fields, form } = assignmentErrors(create.error);
  const options = users.filter((u) => u.active).map((u) => ({ value: u.id, label: `${u.name} (${u.email})` }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await create.mutateAsync({
      user_id: userId ?? "",
      effective_from: from,
      effective_to: to === "" ? null : to,
      quota_override: quota === "" ? null : Number(quota),
    });
    setUserId(null);
    setTo("");
    setQuota("");
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
            value={userId}
            onChange={setUserId}
            searchable
            required
            error={fields.user_id}
            comboboxProps={{ withinPortal: true }}
          />
          <TextInput
            type="date"
            label="Effective from"
            value={from}
            onChange={(e) => setFrom(e.currentTarget.value)}
            required
            error={fields.effective_from}
          />
          <TextInput
            type="date"
            label="Effective to"
            description="Empty: open-ended"
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
            error={fields.effective_to}
          />
          <NumberInput
            label="Quota override"
            description={`Empty: the plan's quota (${plan.currency})`}
            value={quota}
            onChange={setQuota}
            decimalScale={2}
            min={0}
            thousandSeparator=","
            error={fields.quota_override}
          />
        </SimpleGrid>
        {form && (
          <Alert color="red" role="alert">
            {form.message}
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
