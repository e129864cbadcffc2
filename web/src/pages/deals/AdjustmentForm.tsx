import { Alert, Button, Group, NumberInput, Select, Stack, Textarea, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { useCreateAdjustment } from "../../data/commissions/mutations";
import type { DealDetail } from "../../data/deals/queries";
import { fieldErrors } from "../../lib/field-errors";
import { adjustmentBody, adjustmentProblems } from "./adjustment-problems";

/**
 * "Add adjustment" (admins and finance): a signed line on the deal for its owner or a credited person,
 * with the reason they will read beside it (POST /commissions/adjustments).
 */
export function AdjustmentForm({ deal, onDone }: { deal: DealDetail; onDone: () => void }) {
  const [userId, setUserId] = useState<string | null>(deal.people.length === 1 ? deal.people[0]!.user_id : null);
  const [amount, setAmount] = useState<number | string>("");
  const [reason, setReason] = useState("");
  const [period, setPeriod] = useState("");
  const [problems, setProblems] = useState<Record<string, string>>({});
  const create = useCreateAdjustment();
  const errors = Object.keys(problems).length > 0 ? problems : fieldErrors(create.error);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = adjustmentProblems({ user_id: userId, amount, reason, period }, deal.currency);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    await create.mutateAsync(adjustmentBody(deal.id, { user_id: userId, amount, reason, period }));
    onDone();
  };

  return (
    <form onSubmit={(e) => void submit(e).catch(() => {})} noValidate>
      <Stack>
        <Select
          label="Person"
          placeholder="Pick one"
          data={deal.people.map((p) => ({ value: p.user_id, label: p.name }))}
          value={userId}
          onChange={setUserId}
          required
          error={errors.user_id}
          comboboxProps={{ withinPortal: true }}
        />
        <NumberInput
          label={`Amount (${deal.currency})`}
          description="Positive pays more; negative takes back."
          value={amount}
          onChange={setAmount}
          decimalScale={2}
          thousandSeparator=","
          allowNegative
          required
          error={errors.amount}
        />
        <Textarea
          label="Reason"
          description="The person reads it with the line."
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          autosize
          minRows={2}
          required
          error={errors.reason}
        />
        <TextInput
          label="Period"
          description="2026-11, 2026-Q4 or 2026. Empty: the period of the person's plan today."
          value={period}
          onChange={(e) => setPeriod(e.currentTarget.value)}
          error={errors.period}
        />
        {create.error && Object.keys(errors).length === 0 && (
          <Alert color="red" role="alert">
            {create.error.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Add adjustment
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
