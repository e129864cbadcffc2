import { Alert, Button, Group, NumberInput, Radio, Stack, Text, Textarea } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { ApiError } from "../../api/errors";
import { useResolveDispute } from "../../data/disputes/mutations";
import type { Dispute } from "../../data/disputes/queries";
import { fieldErrors } from "../../lib/field-errors";
import { money } from "../../lib/format";
import { type Outcome, pendingAdjustment } from "./adjustment";

const OUTCOMES: { value: Outcome; label: string }[] = [
  { value: "approved", label: "Approved" },
  { value: "partially_approved", label: "Partially approved" },
  { value: "denied", label: "Denied" },
];

interface Props {
  dispute: Dispute;
  currentTotal: number;
  currency: string;
  rep: string;
  /** What the amounts total: "the deal's total", or the opener's ("Rita's total") for a user-scope dispute. */
  totalName: string;
  onDone: () => void;
}

/** Outcome, accepted total and note, with the adjustment the resolution will write shown before it is sent. */
export function ResolveForm({ dispute, currentTotal, currency, rep, totalName, onDone }: Props) {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [amount, setAmount] = useState<number | string>("");
  const [note, setNote] = useState("");
  const resolve = useResolveDispute(dispute.id);
  const errors = fieldErrors(resolve.error);
  const amountValue = amount === "" ? null : Number(amount);
  const preview = pendingAdjustment(outcome, amountValue, dispute.expected_amount, currentTotal);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await resolve.mutateAsync({
      outcome: outcome as Outcome,
      ...(outcome !== "denied" && amountValue !== null ? { resolved_amount: amountValue } : {}),
      ...(note.trim() !== "" ? { note } : {}),
    });
    onDone();
  };

  const otherError = resolve.error && Object.keys(errors).length === 0 ? resolve.error : null;
  return (
    <form onSubmit={(e) => void submit(e).catch(() => {})} noValidate aria-label="Resolve the dispute">
      <Stack gap="sm">
        <Radio.Group
          label="Outcome"
          value={outcome}
          onChange={(value) => setOutcome(OUTCOMES.find((o) => o.value === value)?.value ?? null)}
          error={errors.outcome}
          required
        >
          <Group gap="md" mt={4}>
            {OUTCOMES.map((o) => (
              <Radio key={o.value} value={o.value} label={o.label} />
            ))}
          </Group>
        </Radio.Group>
        {outcome !== "denied" && (
          <NumberInput
            label="Accepted total commission"
            description={
              outcome === "approved" && dispute.expected_amount !== null
                ? `Empty: the rep's expected ${money(dispute.expected_amount, currency)}`
                : `${totalName.charAt(0).toUpperCase()}${totalName.slice(1)}, as it should be`
            }
            required={outcome === "partially_approved"}
            value={amount}
            onChange={setAmount}
            decimalScale={2}
            thousandSeparator=","
            error={errors.resolved_amount}
          />
        )}
        <Textarea
          label="Note"
          description="Shown to the rep with the outcome"
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          autosize
          minRows={2}
          error={errors.note}
        />
        <Text size="sm" fw={600} data-testid="adjustment-preview" aria-live="polite">
          {outcome === null
            ? "Pick an outcome to see the adjustment it writes."
            : preview === null
              ? `No adjustment: ${totalName} stays ${money(currentTotal, currency)}.`
              : `Adjustment to be written for ${rep}: ${signed(preview.adjustment, currency)} (new total ${money(
                  preview.accepted,
                  currency,
                )} − current total ${money(currentTotal, currency)}).`}
        </Text>
        {otherError && (
          <Alert color="red" role="alert" title="The dispute was not resolved">
            <Text size="sm">{otherError.message}</Text>
            {otherError instanceof ApiError && otherError.requestId && (
              <Text size="xs" c="gray.7">
                Request id: <code>{otherError.requestId}</code>
              </Text>
            )}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone} disabled={resolve.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={resolve.isPending} disabled={outcome === null}>
            Resolve
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** +$12.50 / −$12.50: an adjustment's direction at a glance. */
function signed(amount: number, currency: string): string {
  return amount > 0 ? `+${money(amount, currency)}` : money(amount, currency);
}
