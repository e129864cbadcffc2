import { Alert, Button, Group, Select, Stack, Text, Title } from "@mantine/core";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useMarkPaid } from "../../data/deals/mutations";
import { type Deal, dealQuery, dealsQuery } from "../../data/deals/queries";
import { everyoneQuery, namesOf } from "../../data/users/queries";
import type { BulkOutcome } from "../../lib/bulk";
import { saveCsv } from "../../lib/download";
import { BulkBar, BulkProgress, selectionTotal, useProgress } from "../../ui/BulkBar";
import { DataTable, listOf } from "../../ui/DataTable";
import { ErrorState } from "../../ui/states";
import { linesCsv } from "./csv";
import { dealColumns } from "./DealsTable";
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

interface Props {
  ownerId: string | null;
  setOwnerId: (ownerId: string | null) => void;
  page: number;
  onPage: (page: number) => void;
}

/** Approved deals to pay: select, see the exact total, export the selection's lines, mark them paid in bulk. */
export function DealsToPay({ ownerId, setOwnerId, page, onPage }: Props) {
  const queryClient = useQueryClient();
  const deals = useQuery({ ...dealsToPay(page, ownerId), placeholderData: keepPreviousData });
  const people = useQuery({ ...everyoneQuery(), select: namesOf });
  const [selected, setSelected] = useState<ReadonlyMap<string, Deal>>(new Map());
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<BulkOutcome<Deal> | null>(null);
  const [exportError, setExportError] = useState<unknown>(null);
  const markPaid = useMarkPaid();
  const progress = useProgress();
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
    const result = await markPaid.mutateAsync({ deals: chosen, progress: progress.report });
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

  const count = `${chosen.length} deal${chosen.length === 1 ? "" : "s"}`;
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
      {outcome && <PayResult outcome={outcome} />}
      {(deals.data?.meta.total ?? 0) > 0 && (
        <BulkBar
          summaryId="selection-summary"
          summary={chosen.length === 0 ? "No deals selected" : `${count} selected · ${selectionTotal(chosen)}`}
          actions={
            <>
              <Button variant="default" size="sm" disabled={chosen.length === 0} onClick={() => void exportCsv()}>
                Export CSV
              </Button>
              {!confirming && (
                <Button
                  size="sm"
                  disabled={chosen.length === 0}
                  loading={markPaid.isPending}
                  onClick={() => setConfirming(true)}
                >
                  Mark paid
                </Button>
              )}
            </>
          }
        />
      )}
      {markPaid.isPending && markPaid.variables && (
        <BulkProgress of={markPaid.variables.deals.length} verb="Marked paid" listener={progress.listener} />
      )}
      {confirming && (
        <Alert color="indigo" title="Mark these deals paid?">
          <Stack gap="xs">
            <Text size="sm">
              {count}, {selectionTotal(chosen)}. This records a payment made elsewhere; it moves no money.
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
      <DataTable
        label="Approved deals to pay"
        testId="deals-to-pay"
        minWidth={720}
        table={{ fz: "sm" }}
        columns={dealColumns({ deals: deals.data?.data ?? [], selected, toggle, nameOf })}
        rowProps={(deal) => ({ "data-testid": "deal-to-pay", "data-deal-id": deal.id })}
        loading="Loading approved deals"
        empty={{
          title: "No approved deals",
          children: "Deals appear here once they are approved, until they are paid.",
        }}
        filtered={
          ownerId
            ? {
                title: "No approved deals of theirs",
                children: "This person has no approved deal waiting to be paid.",
                onClear: () => setOwnerId(null),
              }
            : undefined
        }
        {...listOf(deals, { noun: ["approved deal", "approved deals"], onPage, countId: "deals-total" })}
      />
    </Stack>
  );
}
