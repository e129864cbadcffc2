import { Alert, Button, Group, Pagination, Select, Stack, Text, Title } from "@mantine/core";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useMarkPaid } from "../../data/deals/mutations";
import { type Deal, dealQuery, dealsQuery } from "../../data/deals/queries";
import { everyoneQuery, namesOf } from "../../data/users/queries";
import type { BulkOutcome } from "../../lib/bulk";
import { saveCsv } from "../../lib/download";
import { money } from "../../lib/format";
import { sumMoney } from "../../lib/money";
import { EmptyState, ErrorState, LoadingState } from "../../ui/states";
import { linesCsv } from "./csv";
import { DealsTable } from "./DealsTable";
import { PayResult } from "./PayResult";

const DEALS_PAGE_SIZE = 50;

/** The deals that can be marked paid (approved ones), oldest close date first. */
const dealsToPay = (page: number, ownerId: string | null) =>
  dealsQuery({
    status: ["approved"],
    sort: "close_date",
    page,
    per_page: DEALS_PAGE_SIZE,
    ...(ownerId ? { owner_id: ownerId } : {}),
  });

/** The selection's total per currency, exact (lib/money.ts): "$1,234.57 + €50.00". */
function selectedTotal(deals: readonly Deal[]): string {
  const byCurrency = new Map<string, number[]>();
  for (const deal of deals)
    byCurrency.set(deal.currency, [...(byCurrency.get(deal.currency) ?? []), deal.total_commission]);
  return [...byCurrency].map(([currency, amounts]) => money(sumMoney(amounts), currency)).join(" + ");
}

/** Approved deals to pay: select, see the exact total, export the selection's lines, mark them paid in bulk. */
export function DealsToPay({
  ownerId,
  setOwnerId,
}: {
  ownerId: string | null;
  setOwnerId: (ownerId: string | null) => void;
}) {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const deals = useQuery({ ...dealsToPay(page, ownerId), placeholderData: keepPreviousData });
  const [shownOwner, setShownOwner] = useState(ownerId);
  // Another owner (picked here or from a group above) starts at the first page of their deals.
  if (shownOwner !== ownerId) {
    setShownOwner(ownerId);
    setPage(1);
  }
  const people = useQuery({ ...everyoneQuery(), select: namesOf });
  const [selected, setSelected] = useState<ReadonlyMap<string, Deal>>(new Map());
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<BulkOutcome<Deal> | null>(null);
  const [exportError, setExportError] = useState<unknown>(null);
  const markPaid = useMarkPaid();
  const [progress, setProgress] = useState<{ finished: number; of: number } | null>(null);
  const nameOf = (id: string) => people.data?.get(id) ?? id;
  const chosen = [...selected.values()];

  const toggle = (deal: Deal, on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      if (on) next.set(deal.id, deal);
      else next.delete(deal.id);
      return next;
    });

  const pay = async () => {
    setConfirming(false);
    setOutcome(null);
    setProgress({ finished: 0, of: chosen.length });
    const result = await markPaid
      .mutateAsync({ deals: chosen, progress: (finished) => setProgress({ finished, of: chosen.length }) })
      .finally(() => setProgress(null));
    setOutcome(result);
    // Paid deals leave the selection; refused ones stay selected, to retry or drop.
    setSelected(new Map(result.failed.map((f) => [f.item.id, f.item])));
  };

  const exportCsv = async () => {
    setExportError(null);
    try {
      const details = await Promise.all(chosen.map((deal) => queryClient.fetchQuery(dealQuery(deal.id))));
      const lines = details.flatMap((deal) => deal.commissions.filter((line) => line.status === "approved"));
      saveCsv(linesCsv(lines), `payouts-${chosen.length}-deals.csv`);
    } catch (error) {
      setExportError(error);
    }
  };

  const total = deals.data?.meta.total ?? 0;
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="end" wrap="wrap">
        <Title order={3}>Approved deals to pay</Title>
        <Select
          label="Owner"
          placeholder="Everyone"
          clearable
          searchable
          w={240}
          data={[...(people.data ?? [])].map(([value, label]) => ({ value, label }))}
          value={ownerId}
          onChange={setOwnerId}
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
      {deals.isPending && <LoadingState label="Loading approved deals" />}
      {deals.isError && <ErrorState error={deals.error} retry={() => void deals.refetch()} />}
      {outcome && <PayResult outcome={outcome} />}
      {deals.isSuccess && total === 0 && (
        <EmptyState title="No approved deals">
          Deals appear here once they are approved, until they are paid.
        </EmptyState>
      )}
      {deals.isSuccess && total > 0 && (
        <>
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm" data-testid="selection-summary" aria-live="polite">
              {chosen.length === 0
                ? "No deals selected"
                : `${chosen.length} deal${chosen.length === 1 ? "" : "s"} selected · ${selectedTotal(chosen)}`}
            </Text>
            <Group gap="xs">
              <Button variant="default" size="sm" disabled={chosen.length === 0} onClick={() => void exportCsv()}>
                Export CSV
              </Button>
              {!confirming && (
                <Button
                  size="sm"
                  disabled={chosen.length === 0}
                  loading={progress !== null}
                  onClick={() => setConfirming(true)}
                >
                  Mark paid
                </Button>
              )}
            </Group>
          </Group>
          {progress && (
            <Text size="sm" aria-live="polite">
              Marking paid… {progress.finished} of {progress.of}
            </Text>
          )}
          {confirming && (
            <Alert color="indigo" title="Mark these deals paid?">
              <Stack gap="xs">
                <Text size="sm">
                  {chosen.length} deal{chosen.length === 1 ? "" : "s"}, {selectedTotal(chosen)}. This records a payment
                  made elsewhere; it moves no money.
                </Text>
                <Group gap="xs">
                  <Button size="xs" onClick={() => void pay()}>
                    Mark {chosen.length} paid
                  </Button>
                  <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
                    Cancel
                  </Button>
                </Group>
              </Stack>
            </Alert>
          )}
          {exportError !== null && <ErrorState error={exportError} />}
          <DealsTable deals={deals.data.data} selected={selected} toggle={toggle} nameOf={nameOf} />
          <Group justify="space-between">
            <Text size="sm" c="gray.7">
              {total} approved deal{total === 1 ? "" : "s"}
            </Text>
            {total > DEALS_PAGE_SIZE && (
              <Pagination
                total={Math.ceil(total / DEALS_PAGE_SIZE)}
                value={page}
                onChange={setPage}
                size="sm"
                aria-label="Deal pages"
              />
            )}
          </Group>
        </>
      )}
    </Stack>
  );
}
