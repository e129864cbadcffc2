import { Button, Kbd, Select, Stack, Text } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { useState } from "react";
import { useApproveDeals } from "../../data/deals/mutations";
import type { Deal, DealSort } from "../../data/deals/queries";
import { everyoneQuery, namesOf } from "../../data/users/queries";
import type { BulkOutcome as Outcome } from "../../lib/bulk";
import { useDraftCommittedOnPause } from "../../lib/draft";
import { fieldErrors } from "../../lib/field-errors";
import { BulkBar, BulkProgress, selectionTotal, useProgress } from "../../ui/BulkBar";
import { DataTable, listOf } from "../../ui/DataTable";
import { PageHeader } from "../../ui/PageHeader";
import { EmptyState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { ApproveDialog } from "./ApproveDialog";
import { BulkOutcome } from "./BulkOutcome";
import { DealDrawer } from "./DealDrawer";
import { QueueFilters } from "./QueueFilters";
import { useQueueColumns } from "./QueueTable";
import { FIRST_VIEW, planOptions, queueQuery, searchOf, viewOf } from "./queue";
import { RejectDialog } from "./RejectDialog";
import { PAGE_SIZES } from "./schemas";
import { SHORTCUT_KEYS, useQueueShortcuts } from "./useQueueShortcuts";

const route = getRouteApi("/signed-in/approvals");
/** How long typing in a filter pauses before the queue follows it. */
const FILTER_PAUSE_MS = 300;
/** Failure codes a second try may cure (lib/bulk.ts gives "network" when no answer came). */
const RETRYABLE = new Set([
  "network",
  "rate_limited",
  "request_timeout",
  "internal_error",
  "unavailable",
  "idempotency_key_in_use",
]);

/** The admin's approval queue: pending deals, filtered and sorted by the API, approved many at a time. */
export function ApprovalsPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const view = viewOf(search);
  const [selected, setSelected] = useState<Map<string, Deal>>(new Map());
  const [focused, setFocused] = useState(0);
  const [rejecting, setRejecting] = useState<Deal | null>(null);
  // What the person is asked to confirm before it is approved: approving locks lines.
  const [confirming, setConfirming] = useState<Deal[] | null>(null);
  const progress = useProgress();
  const [outcome, setOutcome] = useState<Outcome<Deal> | null>(null);

  const list = useQuery({ ...queueQuery(view), placeholderData: keepPreviousData });
  const people = useQuery({ ...everyoneQuery(), select: namesOf });
  const plans = useQuery(planOptions());
  const approveMany = useApproveDeals();
  useRenderedMark(list.data !== undefined && people.data !== undefined);

  const deals = list.data?.data ?? [];
  const nameOf = (id: string) => people.data?.get(id) ?? id;
  const open = search.deal ?? null;
  const setOpen = (deal: string | null) => void navigate({ search: { ...search, deal: deal ?? undefined } });
  /** Another view of the queue (filters, sort, page size) starts at its first page, on its first row. */
  const show = (next: Partial<typeof search>) => {
    setFocused(0);
    void navigate({ search: { ...search, page: undefined, ...next } });
  };
  const appliedFilters = JSON.stringify(view.filters);
  // The filter fields as typed; the URL (and the query) follow once typing pauses. A URL changed
  // elsewhere (Back, Clear) starts the fields again and is not moved back to what they held before.
  const [filters, setFilters] = useDraftCommittedOnPause(view.filters, FILTER_PAUSE_MS, (typed) =>
    show(searchOf(typed)),
  );
  const clearFilters = () => {
    setFilters(FIRST_VIEW.filters);
    show({ ...searchOf(FIRST_VIEW.filters), deal: undefined });
  };

  /** Every approval asks first (the bar, a row's button, the "a" key): the count and total, then the run. */
  const approve = (targets: Deal[]) => {
    if (targets.length === 0 || approveMany.isPending) return;
    setConfirming(targets);
  };
  const runApproval = (targets: Deal[]) => {
    setConfirming(null);
    setOutcome(null);
    approveMany.mutate(
      { deals: targets, progress: progress.report },
      {
        onSuccess: (result) => {
          setOutcome(result);
          // A failure that trying again may cure stays selected; the rest leave the selection (an approved
          // deal leaves the queue; one decided by someone else, or gone, will not become approvable).
          setSelected((s) => {
            const next = new Map(s);
            for (const d of result.done) next.delete(d.id);
            for (const f of result.failed) if (!RETRYABLE.has(f.code)) next.delete(f.item.id);
            return next;
          });
        },
      },
    );
  };
  const toggle = (deal: Deal) =>
    setSelected((s) => {
      const next = new Map(s);
      if (next.has(deal.id)) next.delete(deal.id);
      else next.set(deal.id, deal);
      return next;
    });
  const toggleAll = (select: boolean) =>
    setSelected((s) => {
      const next = new Map(s);
      for (const d of deals) {
        if (select) next.set(d.id, d);
        else next.delete(d.id);
      }
      return next;
    });
  const current = deals[Math.min(focused, deals.length - 1)];
  useQueueShortcuts(open === null && rejecting === null && confirming === null && deals.length > 0, {
    next: () => setFocused((i) => Math.min(i + 1, deals.length - 1)),
    previous: () => setFocused((i) => Math.max(i - 1, 0)),
    toggle: () => current && toggle(current),
    approve: () => current && approve([current]),
    reject: () => current && setRejecting(current),
    open: () => current && setOpen(current.id),
  });
  const table = useQueueColumns({
    deals,
    selected,
    focused,
    sort: view.sort,
    nameOf,
    onSort: (sort: DealSort) => show({ sort }),
    onFocusRow: setFocused,
    onToggle: toggle,
    onToggleAll: toggleAll,
    onOpen: (d) => setOpen(d.id),
    onApprove: (d) => approve([d]),
    onReject: setRejecting,
    busy: approveMany.isPending,
  });
  const selection = [...selected.values()];

  return (
    <Stack gap="md">
      <PageHeader
        title="Approvals"
        action={
          <Button variant="subtle" onClick={clearFilters}>
            Clear filters
          </Button>
        }
      >
        Pending deals. Approving locks a deal's lines; rejecting voids them and tells the owner why.
      </PageHeader>
      <QueueFilters
        filters={filters}
        onChange={setFilters}
        owners={[...(people.data ?? new Map<string, string>()).entries()]}
        plans={plans.data?.data ?? []}
        errors={fieldErrors(list.error)}
      />
      <BulkBar
        testId="selection-bar"
        summaryId="selection-total"
        summary={`${selection.length} selected · commission ${selectionTotal(selection)}`}
        actions={
          <>
            <Button
              onClick={() => approve(selection)}
              disabled={selection.length === 0}
              loading={approveMany.isPending}
            >
              Approve {selection.length} selected
            </Button>
            {selection.length > 0 && (
              <Button variant="subtle" onClick={() => setSelected(new Map())} disabled={approveMany.isPending}>
                Clear selection
              </Button>
            )}
          </>
        }
      />
      {approveMany.isPending && approveMany.variables && (
        <BulkProgress of={approveMany.variables.deals.length} verb="Approved" listener={progress.listener} />
      )}
      {outcome && <BulkOutcome outcome={outcome} onClose={() => setOutcome(null)} />}
      <Text size="xs" c="gray.7" data-testid="shortcut-help">
        Keys on the focused row: <Kbd>{SHORTCUT_KEYS.next}</Kbd> next · <Kbd>{SHORTCUT_KEYS.previous}</Kbd> previous ·{" "}
        <Kbd>{SHORTCUT_KEYS.toggle}</Kbd> select · <Kbd>{SHORTCUT_KEYS.approve}</Kbd> approve ·{" "}
        <Kbd>{SHORTCUT_KEYS.reject}</Kbd> reject · <Kbd>{SHORTCUT_KEYS.open}</Kbd> lines (not while typing in a field)
      </Text>
      <DataTable
        label="Pending deals"
        testId="approval-queue"
        minWidth={980}
        narrowMinWidth={0}
        table={{ highlightOnHover: true, verticalSpacing: "xs" }}
        {...table}
        loading="Loading pending deals"
        loadingLines={8}
        error={(error) =>
          Object.keys(fieldErrors(error)).length > 0 ? (
            <EmptyState title="Check the filters">
              The API refused a filter: its message is on the field above.
            </EmptyState>
          ) : undefined
        }
        empty={{ title: "No pending deals", children: "Every deal submitted has been approved or rejected." }}
        filtered={
          appliedFilters === JSON.stringify(FIRST_VIEW.filters)
            ? undefined
            : {
                title: "No pending deals",
                children: "Nothing waits for approval with these filters.",
                onClear: clearFilters,
              }
        }
        {...listOf(list, {
          noun: ["pending deal", "pending deals"],
          countId: "queue-total",
          onPage: (page) => {
            setFocused(0);
            void navigate({ search: { ...search, page } });
          },
          extra: (
            <Select
              aria-label="Deals per page"
              data={PAGE_SIZES.map(String)}
              value={String(view.perPage)}
              onChange={(v) => v && show({ per_page: Number(v) })}
              w={80}
              allowDeselect={false}
            />
          ),
        })}
      />
      <DealDrawer dealId={open} onClose={() => setOpen(null)} nameOf={nameOf} />
      <ApproveDialog
        deals={confirming}
        onConfirm={() => confirming && runApproval(confirming)}
        onClose={() => setConfirming(null)}
      />
      <RejectDialog
        deal={rejecting}
        onClose={(rejected) => {
          setRejecting(null);
          if (rejected) {
            setSelected((s) => {
              const next = new Map(s);
              next.delete(rejected.id);
              return next;
            });
          }
        }}
      />
    </Stack>
  );
}
