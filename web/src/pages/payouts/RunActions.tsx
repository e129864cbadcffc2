import { Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { useRouteContext } from "@tanstack/react-router";
import { useState } from "react";
import { useCancelPayoutRun, useFinalizePayoutRun } from "../../data/payout-runs/mutations";
import type { PayoutRunDetail } from "../../data/payout-runs/queries";
import { money } from "../../lib/format";
import { minorUnits } from "../../lib/money";
import { ConfirmModal } from "../../ui/ConfirmModal";

/** "1,234.50", "$1,234.50" or "1234.5" all read as 1234.50 (USD): what a person types for an amount. */
function typedCents(text: string, currency: string): string | null {
  const cleaned = text.replace(/[^0-9.-]/g, "");
  if (cleaned === "" || Number.isNaN(Number(cleaned))) return null;
  return Number(cleaned).toFixed(minorUnits(currency));
}

/** A draft run's two ways out: finalize (the person types each currency's net pay to confirm) or cancel. */
export function RunActions({ run }: { run: PayoutRunDetail }) {
  const { session } = useRouteContext({ from: "/signed-in" });
  const [finalizing, setFinalizing] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [typed, setTyped] = useState<Record<string, string>>({});
  const finalize = useFinalizePayoutRun();
  const cancel = useCancelPayoutRun();
  if (run.status !== "draft" || (session.user.role !== "finance" && session.user.role !== "admin")) return null;
  const confirmed = run.totals.every(
    (t) => typedCents(typed[t.currency] ?? "", t.currency) === t.net_pay.toFixed(minorUnits(t.currency)),
  );
  const payees = run.totals.reduce((n, t) => n + t.payees, 0);
  return (
    <Group gap="sm">
      <Button variant="default" color="red" onClick={() => setCancelling(true)}>
        Cancel run
      </Button>
      <Button onClick={() => setFinalizing(true)}>Finalize…</Button>
      <ConfirmModal
        opened={finalizing}
        title="Finalize this payout run"
        confirmLabel="Finalize and pay"
        pending={finalize.isPending}
        confirmDisabled={!confirmed}
        error={finalize.error}
        onConfirm={() => finalize.mutate(run.id, { onSuccess: () => setFinalizing(false) })}
        onClose={() => setFinalizing(false)}
      >
        <Stack gap="sm">
          <Text size="sm">
            Finalizing pays {payees} {payees === 1 ? "person" : "people"}: every line in the run becomes paid, and so
            does every deal whose lines are all paid. A finalized run never changes; a later correction goes into the
            next run.
          </Text>
          {run.totals.map((t) => (
            <TextInput
              key={t.currency}
              label={`Type the net pay in ${t.currency} to confirm: ${money(t.net_pay, t.currency)}`}
              value={typed[t.currency] ?? ""}
              onChange={(e) => setTyped({ ...typed, [t.currency]: e.currentTarget.value })}
              error={
                typed[t.currency] &&
                typedCents(typed[t.currency]!, t.currency) !== t.net_pay.toFixed(minorUnits(t.currency))
                  ? `That is not ${money(t.net_pay, t.currency)}`
                  : undefined
              }
            />
          ))}
          {!confirmed && run.totals.length > 0 && (
            <Text size="xs" c="gray.7">
              The button pays once every total you typed matches.
            </Text>
          )}
        </Stack>
      </ConfirmModal>
      <ConfirmModal
        opened={cancelling}
        title="Cancel this draft run"
        confirmLabel="Cancel the run"
        cancelLabel="Keep it"
        destructive
        pending={cancel.isPending}
        error={cancel.error}
        onConfirm={() => cancel.mutate(run.id, { onSuccess: () => setCancelling(false) })}
        onClose={() => setCancelling(false)}
      >
        Nothing is paid. Its lines go back to what the next run may take.
      </ConfirmModal>
    </Group>
  );
}
