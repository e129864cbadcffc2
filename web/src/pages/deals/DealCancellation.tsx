import { Button, Group, Text } from "@mantine/core";
import { useRouteContext } from "@tanstack/react-router";
import { lazy, Suspense, useState } from "react";
import type { DealDetail } from "../../data/deals/queries";
import { date, money } from "../../lib/format";

// The dialog (and its preview) loads when an admin opens it, not with every deal.
const ClawbackDialog = lazy(() => import("./ClawbackDialog").then((m) => ({ default: m.ClawbackDialog })));

/** An admin's "Record a refund" and "Cancel deal" on an approved or paid deal (API.md §14). */
export function ClawbackActions({ deal, nameOf }: { deal: DealDetail; nameOf: (userId: string) => string }) {
  const { session } = useRouteContext({ from: "/signed-in" });
  const [open, setOpen] = useState<"cancel" | "refund" | null>(null);
  if (session.user.role !== "admin" || (deal.status !== "approved" && deal.status !== "paid")) return null;
  return (
    <Group gap="xs">
      <Button variant="default" onClick={() => setOpen("refund")}>
        Record a refund…
      </Button>
      <Button variant="default" color="red" onClick={() => setOpen("cancel")}>
        Cancel deal…
      </Button>
      {open && (
        <Suspense>
          <ClawbackDialog deal={deal} type={open} nameOf={nameOf} onClose={() => setOpen(null)} />
        </Suspense>
      )}
    </Group>
  );
}

/** Why and when a deal was cancelled, and what has been refunded of it. */
export function CancellationFacts({ deal }: { deal: DealDetail }) {
  return (
    <>
      {deal.cancelled_at && (
        <Text size="sm" mt="sm" data-testid="deal-cancelled">
          Cancelled on {date(deal.cancelled_at)}, effective {date(deal.cancel_effective_date ?? deal.cancelled_at)}
          {deal.cancel_reason ? `: ${deal.cancel_reason}` : ""}
        </Text>
      )}
      {deal.refunded_amount > 0 && (
        <Text size="sm" mt="sm" data-testid="deal-refunded">
          Refunded {money(deal.refunded_amount, deal.currency)} of {money(deal.arr_amount, deal.currency)}
        </Text>
      )}
    </>
  );
}
