import { Button, Checkbox, Group, UnstyledButton, VisuallyHidden } from "@mantine/core";
import { useEffect, useRef } from "react";
import type { Deal, DealSort } from "../../data/deals/queries";
import { date, money } from "../../lib/format";
import type { Column } from "../../ui/DataTable";
import { DEAL_TYPE_LABELS } from "../../ui/labels";

type SortField = "close_date" | "arr_amount" | "total_commission" | "created_at";

interface Options {
  deals: Deal[];
  selected: { has(dealId: string): boolean };
  focused: number;
  sort: DealSort;
  nameOf: (userId: string) => string;
  onSort: (sort: DealSort) => void;
  onFocusRow: (index: number) => void;
  onToggle: (deal: Deal) => void;
  onToggleAll: (select: boolean) => void;
  onOpen: (deal: Deal) => void;
  onApprove: (deal: Deal) => void;
  onReject: (deal: Deal) => void;
  busy: boolean;
}

const nowrap = () => ({ style: { whiteSpace: "nowrap" } });

/** One page of pending deals: a checkbox each, sortable by the fields the API sorts, one row focused. */
export function useQueueColumns(props: Options) {
  const { deals, selected, focused, sort, nameOf, onSort, onFocusRow, onToggle, onToggleAll } = props;
  const rows = useRef<(HTMLTableRowElement | null)[]>([]);
  const allOnPage = deals.length > 0 && deals.every((d) => selected.has(d.id));
  const someOnPage = deals.some((d) => selected.has(d.id));
  const tab = (index: number) => (index === focused ? 0 : -1);

  // The focused row takes the browser's focus when the shortcuts move it (not on first render).
  const moved = useRef(false);
  useEffect(() => {
    if (moved.current) rows.current[focused]?.focus();
    moved.current = true;
  }, [focused]);

  const sorted = (field: SortField) => ({
    direction: sort === field ? ("ascending" as const) : sort === `-${field}` ? ("descending" as const) : undefined,
    toggle: () => onSort(sort === `-${field}` ? field : `-${field}`),
  });

  const columns: Column<Deal>[] = [
    {
      header: (
        <Checkbox
          aria-label="Select every deal on this page"
          checked={allOnPage}
          indeterminate={someOnPage && !allOnPage}
          onChange={(e) => onToggleAll(e.currentTarget.checked)}
        />
      ),
      width: 40,
      cell: (deal, index) => (
        <Checkbox
          aria-label={`Select ${deal.opportunity_name}`}
          checked={selected.has(deal.id)}
          onChange={() => onToggle(deal)}
          tabIndex={tab(index)}
        />
      ),
    },
    {
      header: "Deal",
      rowHeader: true,
      cell: (deal, index) => (
        <UnstyledButton
          onClick={() => props.onOpen(deal)}
          fz="sm"
          fw={600}
          c="blue.9"
          td="underline"
          tabIndex={tab(index)}
        >
          {deal.opportunity_name}
        </UnstyledButton>
      ),
    },
    // A phone keeps the deal, its commission and the actions; the rest is in the deal's drawer.
    { header: "Owner", visibleFrom: "sm", cell: (deal) => nameOf(deal.owner_id) },
    { header: "Type", visibleFrom: "sm", props: nowrap, cell: (deal) => DEAL_TYPE_LABELS[deal.deal_type] },
    {
      header: "Close date",
      visibleFrom: "sm",
      props: nowrap,
      sort: sorted("close_date"),
      cell: (deal) => date(deal.close_date),
    },
    {
      header: "ARR",
      id: "arr",
      visibleFrom: "sm",
      numeric: true,
      sort: sorted("arr_amount"),
      cell: (deal) => money(deal.arr_amount, deal.currency),
    },
    {
      header: "Commission",
      id: "commission",
      numeric: true,
      sort: sorted("total_commission"),
      cell: (deal) => money(deal.total_commission, deal.total_commission_currency),
    },
    {
      header: "Submitted",
      visibleFrom: "sm",
      props: nowrap,
      sort: sorted("created_at"),
      cell: (deal) => date(deal.created_at),
    },
    {
      header: <VisuallyHidden>Actions</VisuallyHidden>,
      cell: (deal, index) => (
        // One above the other when the row is narrow (a phone), side by side otherwise.
        <Group gap={4} miw={0} maw={{ base: 70, sm: "none" }}>
          <Button
            size="compact-xs"
            variant="light"
            disabled={props.busy}
            onClick={() => props.onApprove(deal)}
            tabIndex={tab(index)}
            aria-label={`Approve ${deal.opportunity_name}`}
          >
            Approve
          </Button>
          <Button
            size="compact-xs"
            variant="light"
            color="red.9"
            disabled={props.busy}
            onClick={() => props.onReject(deal)}
            tabIndex={tab(index)}
            aria-label={`Reject ${deal.opportunity_name}`}
          >
            Reject
          </Button>
        </Group>
      ),
    },
  ];

  const rowProps = (deal: Deal, index: number) => ({
    ref: (el: HTMLTableRowElement | null) => {
      rows.current[index] = el;
    },
    "data-deal-id": deal.id,
    "data-focused": index === focused || undefined,
    tabIndex: tab(index),
    onFocus: () => onFocusRow(index),
    bg: selected.has(deal.id) ? "blue.0" : undefined,
    style: index === focused ? { outline: "2px solid var(--mantine-color-blue-7)", outlineOffset: -2 } : undefined,
  });

  return { columns, rowProps };
}
