import { Alert, Button, Group, NumberInput, Select, Stack, Textarea } from "@mantine/core";
import { useRouteContext } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { useOpenDispute } from "../../data/disputes/mutations";
import type { Dispute } from "../../data/disputes/queries";
import { fieldErrors } from "../../lib/field-errors";
import { money } from "../../lib/format";
import { DISPUTE_REASON_LABELS } from "../../ui/labels";

type Reason = Dispute["reason"];
const REASON_VALUES = Object.keys(DISPUTE_REASON_LABELS) as Reason[];
const REASONS = REASON_VALUES.map((value) => ({ value, label: DISPUTE_REASON_LABELS[value] }));

/** "Dispute this": reason (the API's enum), description, the total the person expects. */
export function DisputeForm(props: {
  dealId: string;
  currency: string;
  /** The person's own lines' total on the deal now (what a rep's or manager's dispute is about). */
  ownAmount?: number;
  onDone: () => void;
}) {
  const { dealId, currency, ownAmount, onDone } = props;
  const [reason, setReason] = useState<Reason | null>(null);
  const [reasonMissing, setReasonMissing] = useState(false);
  const [description, setDescription] = useState("");
  const [expected, setExpected] = useState<number | string>("");
  const open = useOpenDispute(dealId);
  const { session } = useRouteContext({ from: "/signed-in" });
  // API.md §20 (b): a rep's or manager's dispute is about their own lines on the deal; an admin's, its total.
  const own = session.user.role === "rep" || session.user.role === "manager";
  const errors = fieldErrors(open.error);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setReasonMissing(reason === null);
    if (reason === null) return;
    await open.mutateAsync({
      reason,
      description: description.trim() === "" ? null : description,
      expected_amount: expected === "" ? null : Number(expected),
    });
    onDone();
  };

  return (
    <form onSubmit={(e) => void submit(e).catch(() => {})} noValidate>
      <Stack>
        <Select
          label="Reason"
          placeholder="Pick one"
          data={REASONS}
          value={reason}
          onChange={(value) => setReason(REASON_VALUES.find((r) => r === value) ?? null)}
          required
          error={errors.reason ?? (reasonMissing ? "Pick a reason" : undefined)}
          comboboxProps={{ withinPortal: true }}
        />
        <Textarea
          label="Description"
          description="What is wrong, in your words"
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          autosize
          minRows={3}
          error={errors.description}
        />
        <NumberInput
          label={own ? "Your expected commission" : "Expected total commission"}
          description={
            own
              ? `The total of your own lines on this deal you expect${ownAmount === undefined ? "" : ` (now ${money(ownAmount, currency)})`}`
              : "The deal's total you expect"
          }
          value={expected}
          onChange={setExpected}
          decimalScale={2}
          min={0}
          thousandSeparator=","
          error={errors.expected_amount}
        />
        {open.error && !Object.keys(errors).length && (
          <Alert color="red" role="alert">
            {open.error.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone} disabled={open.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={open.isPending}>
            Open dispute
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
