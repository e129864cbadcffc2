import { Alert, Button, Group, Modal, NumberInput, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { type FormEvent, useEffect, useState } from "react";
import { useCancelDeal, useClawbackPreview, useRefundDeal } from "../../data/deals/clawbacks";
import type { DealDetail } from "../../data/deals/queries";
import { fieldErrors } from "../../lib/field-errors";
import { date, money } from "../../lib/format";
import { minorUnits, totalsByCurrency } from "../../lib/money";
import { ClawbackSummary } from "./ClawbackSummary";

const todayUtc = () => new Date().toISOString().slice(0, 10);

/**
 * Cancel a deal or record a refund (API.md §14), admins only: the clawbacks it would write are asked of
 * the API's preview as the date and amount change, and shown before anything is written.
 */
export function ClawbackDialog(props: {
  deal: DealDetail;
  type: "cancel" | "refund";
  nameOf: (userId: string) => string;
  onClose: () => void;
}) {
  const { deal, type } = props;
  const [effective, setEffective] = useState(() => (todayUtc() < deal.close_date ? deal.close_date : todayUtc()));
  const [amount, setAmount] = useState<number | string>("");
  const [reason, setReason] = useState("");
  const preview = useClawbackPreview(deal.id);
  const cancel = useCancelDeal(deal.id);
  const refund = useRefundDeal(deal.id);
  const write = type === "cancel" ? cancel : refund;
  const errors = { ...fieldErrors(preview.error), ...fieldErrors(write.error) };
  const left = deal.arr_amount - deal.refunded_amount;
  const ready = effective !== "" && (type === "cancel" || (amount !== "" && Number(amount) > 0));

  // The preview follows the form, a moment after the person stops typing.
  const { mutate } = preview;
  useEffect(() => {
    if (!ready) return;
    const timer = setTimeout(
      () => mutate({ type, effective_date: effective, ...(type === "refund" ? { amount: Number(amount) } : {}) }),
      250,
    );
    return () => clearTimeout(timer);
  }, [ready, type, effective, amount, mutate]);

  // Each currency its own total (API.md §15): a converted plan line is clawed back in the plan's currency.
  const taken = totalsByCurrency(preview.data?.clawback_summary ?? []).filter(([, total]) => total !== 0);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (type === "cancel") await cancel.mutateAsync({ reason, effective_date: effective });
    else await refund.mutateAsync({ amount: Number(amount), effective_date: effective, reason });
    props.onClose();
  };
  const title = type === "cancel" ? "Cancel this deal" : "Record a refund";
  return (
    <Modal opened onClose={props.onClose} title={title} size="lg" closeButtonProps={{ "aria-label": "Close" }} centered>
      <form onSubmit={(e) => void submit(e).catch(() => {})} noValidate>
        <Stack>
          <Text size="sm">
            {type === "cancel"
              ? "A cancelled deal is final: its lines stay as earned (attainment does not change), and each plan's clawback policy decides what is taken back."
              : `Refunded so far: ${money(deal.refunded_amount, deal.currency)} of ${money(deal.arr_amount, deal.currency)}. The deal keeps its status.`}
          </Text>
          {type === "refund" && (
            <NumberInput
              label={`Amount refunded (${deal.currency})`}
              description={`At most ${money(left, deal.currency)}`}
              value={amount}
              onChange={setAmount}
              min={0.01}
              max={left}
              decimalScale={minorUnits(deal.currency)}
              thousandSeparator=","
              required
              error={errors.amount}
            />
          )}
          <TextInput
            type="date"
            label="Effective date"
            description={`On or after the close date, ${date(deal.close_date)}`}
            value={effective}
            min={deal.close_date}
            onChange={(e) => setEffective(e.currentTarget.value)}
            required
            error={errors.effective_date}
          />
          <Textarea
            label="Reason"
            description="Shown with every clawback it writes"
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            autosize
            minRows={2}
            required={type === "cancel"}
            error={errors.reason}
          />
          <ClawbackSummary
            nameOf={props.nameOf}
            summary={preview.data?.clawback_summary}
            pending={preview.isPending || !ready}
          />
          {(preview.error || write.error) && !Object.keys(errors).length && (
            <Alert color="red" role="alert">
              {(write.error ?? preview.error)?.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose} disabled={write.isPending}>
              Keep the deal as it is
            </Button>
            <Button
              type="submit"
              color="red"
              loading={write.isPending}
              disabled={!preview.data || reason.trim() === ""}
              data-testid="confirm-clawback"
            >
              {type === "cancel" ? "Cancel the deal" : "Record the refund"}
              {taken.length > 0
                ? ` and claw back ${taken.map(([currency, total]) => money(-total, currency)).join(" and ")}`
                : ""}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
