import { Alert, Button, Group, Modal, NumberInput, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { useEndDraw, useForgiveDraw } from "../../data/draws/mutations";
import type { Draw } from "../../data/draws/queries";
import { fieldErrors } from "../../lib/field-errors";
import { date, money } from "../../lib/format";
import { ActionError } from "../../ui/ActionError";
import { drawErrorInWords } from "./draw-text";

interface Props {
  draw: Draw;
  onDone: (draw: Draw) => void;
  onClose: () => void;
}

/** The API's refusal: in words by its code when there are some, else its message and request id. */
function Refusal({ error, action, placed }: { error: unknown; action: "end" | "forgive"; placed: boolean }) {
  if (!error) return null;
  const inWords = drawErrorInWords(error, action);
  if (inWords)
    return (
      <Alert color="red" role="alert" title={action === "end" ? "The draw was not ended" : "Nothing was forgiven"}>
        {inWords}
      </Alert>
    );
  return placed ? null : <ActionError error={error} />;
}

/** Ends a draw on a date: periods ending after it never advance; the balance is still recovered. */
export function EndDrawDialog({ draw, onDone, onClose }: Props) {
  const end = useEndDraw();
  const [effective, setEffective] = useState(draw.ends_on);
  const errors = fieldErrors(end.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    end.mutate({ id: draw.id, body: { effective_date: effective } }, { onSuccess: onDone });
  };
  return (
    <Modal opened onClose={onClose} closeButtonProps={{ "aria-label": "Close" }} title="End the draw" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">
            Its last day is {date(draw.ends_on)}. Periods ending after the new last day never advance (no part of a
            period is paid); a balance keeps being recovered from later runs.
          </Text>
          <TextInput
            label="Last day"
            type="date"
            required
            data-autofocus
            value={effective}
            onChange={(e) => setEffective(e.currentTarget.value)}
            error={errors.effective_date}
          />
          <Refusal error={end.error} action="end" placed={"effective_date" in errors} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={end.isPending}>
              End the draw
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Forgives some or all of a recoverable draw's balance: an entry with its reason; nothing is paid. */
export function ForgiveDrawDialog({ draw, onDone, onClose }: Props) {
  const forgive = useForgiveDraw();
  const [amount, setAmount] = useState<number | string>("");
  const [reason, setReason] = useState("");
  const errors = fieldErrors(forgive.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = amount === "" ? { reason } : { amount: Number(amount), reason };
    forgive.mutate({ id: draw.id, body }, { onSuccess: onDone });
  };
  return (
    <Modal opened onClose={onClose} closeButtonProps={{ "aria-label": "Close" }} title="Forgive the balance" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">
            The balance is {money(draw.balance, draw.currency)}. What is forgiven is never recovered; no line is
            written.
          </Text>
          <NumberInput
            label={`Amount (${draw.currency})`}
            description="Empty: the whole balance."
            decimalScale={2}
            thousandSeparator=","
            min={0}
            data-autofocus
            value={amount}
            onChange={setAmount}
            error={errors.amount}
          />
          <Textarea
            label="Reason"
            required
            autosize
            minRows={2}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            error={errors.reason}
          />
          <Refusal error={forgive.error} action="forgive" placed={"amount" in errors || "reason" in errors} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={forgive.isPending}>
              Forgive
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
