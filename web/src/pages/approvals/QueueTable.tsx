import { Button, Checkbox, Group, Table, UnstyledButton, VisuallyHidden } from "@mantine/core";
import { useEffect, useRef } from "react";
import type { Deal, DealSort as QueueSort } from "../../data/deals/queries";
import { date, money } from "../../lib/format";
import { ScrollTable } from "../../ui/ScrollTable";

type SortField = "close_date" | "arr_amount" | "total_commission" | "created_at";

const COLUMNS: { label: string; sort?: SortField; numeric?: boolean }[] = [
  { label: "Deal" },
  { label: "Owner" },
  { label: "Type" },
  { label: "Close date", sort: "close_date" },
  { label: "ARR", sort: "arr_amount", numeric: true },
  { label: "Commission", sort: "total_commission", numeric: true },
  { label: "Submitted", sort: "created_at" },
];

interface Props {
  deals: Deal[];
  selected: { has(dealId: string): boolean };
  focused: number;
  sort: QueueSort;
  nameOf: (userId: string) => string;
  onSort: (sort: QueueSort) => void;
  onFocusRow: (index: number) => void;
  onToggle: (deal: Deal) => void;
  onToggleAll: (select: boolean) => void;
  onOpen: (deal: Deal) => void;
  onApprove: (deal: Deal) => void;
  onReject: (deal: Deal) => void;
  busy: boolean;
}

/** One page of pending deals: a checkbox each, sortable by the fields the API sorts, one row focused. */
export function QueueTable(props: Props) {
  const { deals, selected, focused, sort, nameOf, onSort, onFocusRow, onToggle, onToggleAll } = props;
  const rows = useRef<(HTMLTableRowElement | null)[]>([]);
  const allOnPage = deals.length > 0 && deals.every((d) => selected.has(d.id));
  const someOnPage = deals.some((d) => selected.has(d.id));

  // The focused row takes the browser's focus when the shortcuts move it (not on first render).
  const moved = useRef(false);
  useEffect(() => {
    if (moved.current) rows.current[focused]?.focus();
    moved.current = true;
  }, [focused]);

  const sortBy = (field: SortField) => onSort(sort === `-${field}` ? field : `-${field}`);
  const direction = (field?: SortField) =>
    !field ? undefined : sort === field ? "ascending" : sort === `-${field}` ? "descending" : undefined;

  return (
    <ScrollTable minWidth={980} label="Pending deals">
      <Table highlightOnHover verticalSpacing="xs" aria-label="Pending deals" data-testid="approval-queue">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col" w={40}>
              <Checkbox
                aria-label="Select every deal on this page"
                checked={allOnPage}
                indeterminate={someOnPage && !allOnPage}
                onChange={(e) => onToggleAll(e.currentTarget.checked)}
              />
            </Table.Th>
            {COLUMNS.map((c) => (
              <Table.Th key={c.label} scope="col" ta={c.numeric ? "right" : undefined} aria-sort={direction(c.sort)}>
                {c.sort ? (
                  <UnstyledButton onClick={() => sortBy(c.sort!)} fw={600} fz="sm">
                    {c.label}
                    {direction(c.sort) === "ascending" ? " ▲" : direction(c.sort) === "descending" ? " ▼" : ""}
                  </UnstyledButton>
                ) : (
                  c.label
                )}
              </Table.Th>
            ))}
            <Table.Th scope="col">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {deals.map((deal, index) => (
            <Table.Tr
              key={deal.id}
              ref={(el) => {
                rows.current[index] = el;
              }}
              data-deal-id={deal.id}
              data-focused={index === focused || undefined}
              tabIndex={index === focused ? 0 : -1}
              onFocus={() => onFocusRow(index)}
              bg={selected.has(deal.id) ? "blue.0" : undefined}
              style={
                index === focused ? { outline: "2px solid var(--mantine-color-blue-7)", outlineOffset: -2 } : undefined
              }
            >
              <Table.Td>
                <Checkbox
                  aria-label={`Select ${deal.opportunity_name}`}
                  checked={selected.has(deal.id)}
                  onChange={() => onToggle(deal)}
                  tabIndex={index === focused ? 0 : -1}
                />
              </Table.Td>
              <Table.Th scope="row" fw={500}>
                <UnstyledButton
                  onClick={() => props.onOpen(deal)}
                  fz="sm"
                  fw={600}
                  c="blue.9"
                  td="underline"
                  tabIndex={index === focused ? 0 : -1}
                >
                  {deal.opportunity_name}
                </UnstyledButton>
              </Table.Th>
              <Table.Td>{nameOf(deal.owner_id)}</Table.Td>
              <Table.Td style={{ whiteSpace: "nowrap" }}>{deal.deal_type.replace("_", " ")}</Table.Td>
              <Table.Td style={{ whiteSpace: "nowrap" }}>{date(deal.close_date)}</Table.Td>
              <Table.Td ta="right" data-col="arr">
                {money(deal.arr_amount, deal.currency)}
              </Table.Td>
              <Table.Td ta="right" data-col="commission">
                {money(deal.total_commission, deal.currency)}
              </Table.Td>
              <Table.Td style={{ whiteSpace: "nowrap" }}>{date(deal.created_at)}</Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Button
                    size="compact-xs"
                    variant="light"
                    disabled={props.busy}
                    onClick={() => props.onApprove(deal)}
                    tabIndex={index === focused ? 0 : -1}
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
                    tabIndex={index === focused ? 0 : -1}
                    aria-label={`Reject ${deal.opportunity_name}`}
                  >
                    Reject
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
