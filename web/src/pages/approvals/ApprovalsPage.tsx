import { Button, Group, Kbd, Pagination, Progress, Select, Stack, Text, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { type RefObject, useEffect, useRef, useState } from "react";
import { useApproveDeals } from "../../data/deals/mutations";
import type { Deal, DealSort as QueueSort } from "../../data/deals/queries";
import { everyoneQuery, namesOf } from "../../data/users/queries";
import type { BulkOutcome as Outcome } from "../../lib/bulk";
import { fieldErrors } from "../../lib/field-errors";
import { EmptyState, ErrorState, LoadingState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { BulkOutcome } from "./BulkOutcome";
import { DealDrawer } from "./DealDrawer";
import { QueueFilters } from "./QueueFilters";
import { QueueTable } from "./QueueTable";
import { FIRST_VIEW, type QueueFilters as Filters, NO_FILTERS, planOptions, queueQuery } from "./queue";
import { RejectDialog } from "./RejectDialog";
import { SelectionTotal } from "./SelectionTotal";
import { SHORTCUT_KEYS, useQueueShortcuts } from "./useQueueShortcuts";

const PAGE_SIZES = ["25", "50", "100"];
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
  const [filters, setFiltersNow] = useState<Filters>(FIRST_VIEW.filters);
  const [debounced] = useDebouncedValue(filters, 300);
  const [sort, setSort] = useState<QueueSort>(FIRST_VIEW.sort);
  const [page, setPage] = useState(FIRST_VIEW.page);
  const [perPage, setPerPage] = useState(FIRST_VIEW.perPage);
  const [selected, setSelected] = useState<Map<string, Deal>>(new Map());
  const [focused, setFocused] = useState(0);
  const [open, setOpen] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState<Deal | null>(null);
  // Progress goes to the progress bar alone: re-rendering the page (100 rows) per approval slowed the bulk run.
  const progressTo = useRef<(finished: number) => void>(undefined);
  const [outcome, setOutcome] = useState<Outcome<Deal> | null>(null);

  const list = useQuery(queueQuery({ filters: debounced, sort, page, perPage }));
  const people = useQuery({ ...everyoneQuery(), select: namesOf });
  const plans = useQuery(planOptions());
  const approveMany = useApproveDeals();
  useRenderedMark(list.data !== undefined && people.data !== undefined);

  const deals = list.data?.data ?? [];
  const nameOf = (id: string) => people.data?.get(id) ?? id;
  const view = (change: () => void) => {
    change();
    setPage(1);
    setFocused(0);
  };
  const setFilters = (next: Filters) => view(() => setFiltersNow(next));

  const approve = (targets: Deal[]) => {
    if (targets.length === 0 || approveMany.isPending) return;
    setOutcome(null);
    approveMany.mutate(
      { deals: targets, progress: (finished) => progressTo.current?.(finished) },
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
  useQueueShortcuts(open === null && rejecting === null && deals.length > 0, {
    next: () => setFocused((i) => Math.min(i + 1, deals.length - 1)),
    previous: () => setFocused((i) => Math.max(i - 1, 0)),
    toggle: () => current && toggle(current),
    approve: () => current && approve([current]),
    reject: () => current && setRejecting(current),
    open: () => current && setOpen(current.id),
  });

  const pages = list.data ? Math.max(1, Math.ceil(list.data.meta.total / perPage)) : 1;
  const selection = [...selected.values()];

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={2}>Approvals</Title>
          <Text c="gray.7" size="sm">
            Pending deals. Approving locks a deal's lines; rejecting voids them and tells the owner why.
          </Text>
        </Stack>
        <Button variant="subtle" onClick={() => setFilters(NO_FILTERS)}>
          Clear filters
        </Button>
      </Group>
      <QueueFilters
        filters={filters}
        onChange={setFilters}
        owners={[...(people.data ?? new Map<string, string>()).entries()]}
        plans={plans.data?.data ?? []}
        errors={fieldErrors(list.error)}
      />
      <Group justify="space-between" gap="sm" data-testid="selection-bar">
        <Group gap="sm">
          <Button onClick={() => approve(selection)} disabled={selection.length === 0} loading={approveMany.isPending}>
            Approve {selection.length} selected
          </Button>
          {selection.length > 0 && (
            <Button variant="subtle" onClick={() => setSelected(new Map())} disabled={approveMany.isPending}>
              Clear selection
            </Button>
          )}
        </Group>
        <SelectionTotal deals={selection} />
      </Group>
      {approveMany.isPending && approveMany.variables && (
        <BulkProgress of={approveMany.variables.deals.length} subscribe={progressTo} />
      )}
      {outcome && <BulkOutcome outcome={outcome} onClose={() => setOutcome(null)} />}
      <Text size="xs" c="gray.7" data-testid="shortcut-help">
        Keys on the focused row: <Kbd>{SHORTCUT_KEYS.next}</Kbd> next · <Kbd>{SHORTCUT_KEYS.previous}</Kbd> previous ·{" "}
        <Kbd>{SHORTCUT_KEYS.toggle}</Kbd> select · <Kbd>{SHORTCUT_KEYS.approve}</Kbd> approve ·{" "}
        <Kbd>{SHORTCUT_KEYS.reject}</Kbd> reject · <Kbd>{SHORTCUT_KEYS.open}</Kbd> lines (not while typing in a field)
      </Text>
      <QueueBody
        list={list}
        deals={deals}
        selected={selected}
        focused={focused}
        sort={sort}
        nameOf={nameOf}
        onSort={(s) => view(() => setSort(s))}
        onFocusRow={setFocused}
        onToggle={toggle}
        onToggleAll={toggleAll}
        onOpen={(d) => setOpen(d.id)}
        onApprove={(d) => approve([d])}
        onReject={setRejecting}
        busy={approveMany.isPending}
      />
      {list.data && list.data.meta.total > 0 && (
        <Group justify="space-between">
          <Text size="sm" c="gray.7" data-testid="queue-total">
            {list.data.meta.total} pending deal{list.data.meta.total === 1 ? "" : "s"}
          </Text>
          <Group gap="sm">
            {pages > 1 && (
              <Pagination
                total={pages}
                value={page}
                onChange={(p) => {
                  setPage(p);
                  setFocused(0);
                }}
                size="sm"
                aria-label="Queue pages"
                getControlProps={(control) => ({ "aria-label": `${control} page` })}
              />
            )}
            <Select
              aria-label="Deals per page"
              data={PAGE_SIZES}
              value={String(perPage)}
              onChange={(v) => v && view(() => setPerPage(Number(v)))}
              w={80}
              allowDeselect={false}
            />
          </Group>
        </Group>
      )}
      <DealDrawer dealId={open} onClose={() => setOpen(null)} nameOf={nameOf} />
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

type QueueBodyProps = Omit<Parameters<typeof QueueTable>[0], "deals"> & {
  list: UseQueryResult<{ data: Deal[] }>;
  deals: Deal[];
};

function QueueBody({ list, deals, ...table }: QueueBodyProps) {
  if (list.isPending) return <LoadingState label="Loading pending deals" lines={8} />;
  if (list.isError) {
    if (Object.keys(fieldErrors(list.error)).length === 0) {
      return <ErrorState error={list.error} retry={() => void list.refetch()} />;
    }
    return (
      <EmptyState title="Check the filters">The API refused a filter: its message is on the field above.</EmptyState>
    );
  }
  if (deals.length === 0) {
    return <EmptyState title="No pending deals">Nothing waits for approval with these filters.</EmptyState>;
  }
  return <QueueTable deals={deals} {...table} />;
}

function BulkProgress({ of, subscribe }: { of: number; subscribe: RefObject<((n: number) => void) | undefined> }) {
  const [finished, setFinished] = useState(0);
  useEffect(() => {
    subscribe.current = setFinished;
    return () => {
      subscribe.current = undefined;
    };
  }, [subscribe]);
  return <Progress value={(finished / of) * 100} aria-label={`Approved ${finished} of ${of}`} />;
}
