import {
  Button,
  Group,
  type MantineBreakpoint,
  Pagination,
  Stack,
  Table,
  type TableProps,
  Text,
  UnstyledButton,
  useMantineTheme,
} from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { Fragment, type ReactNode } from "react";
import { ScrollTable } from "./ScrollTable";
import { EmptyState, ErrorState, LoadingState } from "./states";

export type SortDirection = "ascending" | "descending";

export interface Column<T> {
  header: ReactNode;
  cell: (row: T, index: number) => ReactNode;
  /** `data-col` of the column's cells (what the e2e tests and print styles find). */
  id?: string;
  /** Amounts and counts: right-aligned. */
  numeric?: boolean;
  /** The cell that names the row (`<th scope="row">`). */
  rowHeader?: boolean;
  /** The column sorts: its direction now (absent: not sorted by it) and what a click on its header does. */
  sort?: { direction: SortDirection | undefined; toggle: () => void };
  /** Further props of each cell (white-space, widths, a test id). */
  props?: (row: T) => Record<string, unknown>;
  width?: number;
  /**
   * Shown from this breakpoint up: a column of low priority (a phone keeps the columns that matter;
   * the row's page or drawer has the rest). Give the table a `narrowMinWidth` that fits without it.
   */
  visibleFrom?: MantineBreakpoint;
  /** Shown below this breakpoint only: what a phone shows in place of the columns it hides. */
  hiddenFrom?: MantineBreakpoint;
}

/** A list answer's `meta` (API.md §2). */
export interface Meta {
  page: number;
  per_page: number;
  total: number;
}

interface States {
  /** The query behind the list: its error (with retry) replaces the list. */
  query: { error: unknown; refetch: () => unknown };
  /** What is loading, said to screen readers. */
  loading: string;
  loadingLines?: number;
  /** No records at all: what appears here once there are, and how to make the first. */
  empty: { title: string; children?: ReactNode };
  /** Filters are set and nothing matches: "no results" with a way to clear them. */
  filtered?: { title: string; children?: ReactNode; onClear: () => void };
  /** The error state, when a page says more than the default (a refused filter). */
  error?: (error: unknown) => ReactNode | undefined;
  pager?: Pager;
}

interface Pager {
  meta: Meta | undefined;
  /** "1 person" / "3 people". */
  noun: [one: string, many: string];
  onPage: (page: number) => void;
  /** The count's test id ("list-total" unless a page's tests name it otherwise). */
  countId?: string;
  /** Beside the page buttons (a page-size picker). */
  extra?: ReactNode;
}

/**
 * The four states every list has (loading skeleton, no records, no results with clear-filters, error
 * with retry and the request id), then the list and its pager. `rows` undefined: still loading; the
 * rows shown while the next page loads stay (keepPreviousData), never an empty list instead.
 */
export function DataList<T>(props: States & { rows: T[] | undefined; children: (rows: T[]) => ReactNode }) {
  const { query, rows, empty, filtered, pager } = props;
  if (query.error) {
    return props.error?.(query.error) ?? <ErrorState error={query.error} retry={() => void query.refetch()} />;
  }
  if (rows === undefined) return <LoadingState label={props.loading} lines={props.loadingLines ?? 6} />;
  if (rows.length === 0) {
    if (filtered) {
      return (
        <EmptyState title={filtered.title}>
          <Stack gap="xs" align="center" component="span">
            {filtered.children}
            <Button variant="light" size="xs" onClick={filtered.onClear}>
              Clear the filters
            </Button>
          </Stack>
        </EmptyState>
      );
    }
    return <EmptyState title={empty.title}>{empty.children}</EmptyState>;
  }
  return (
    <Stack gap="sm">
      {props.children(rows)}
      {pager && <ListPager {...pager} />}
    </Stack>
  );
}

const CONTROL_LABELS = { first: "First page", previous: "Previous page", next: "Next page", last: "Last page" };

/** The count of matching records and the page buttons of a paginated list. */
function ListPager({ meta, noun, onPage, countId = "list-total", extra }: Pager) {
  if (!meta) return null;
  const pages = Math.max(1, Math.ceil(meta.total / meta.per_page));
  return (
    <Group justify="space-between">
      <Text size="sm" c="gray.7" data-testid={countId}>
        {meta.total} {meta.total === 1 ? noun[0] : noun[1]}
      </Text>
      <Group gap="sm">
        {pages > 1 && (
          <nav aria-label={`Pages of ${noun[1]}`}>
            <Pagination
              total={pages}
              value={meta.page}
              onChange={onPage}
              size="sm"
              getItemProps={(page) => ({
                "aria-label": `Page ${page}`,
                "aria-current": page === meta.page ? "page" : undefined,
              })}
              getControlProps={(control) => ({ "aria-label": CONTROL_LABELS[control] })}
            />
          </nav>
        )}
        {extra}
      </Group>
    </Group>
  );
}

interface TableOptions<T> {
  /** The table's name (its aria-label and the scrolling region's). */
  label: string;
  columns: Column<T>[];
  /** The row's React key: its record's id unless said otherwise. */
  rowKey?: (row: T) => string;
  /** Each row's data attributes and state (selected, focused). */
  rowProps?: (row: T, index: number) => Record<string, unknown>;
  /** What a row opens below itself (an event's before and after, a delivery's attempts), or null. */
  detail?: (row: T) => ReactNode;
  /** The opened row's id and data attributes (what the row's toggle names in aria-controls). */
  detailProps?: (row: T) => Record<string, unknown>;
  /** Below this width the table scrolls sideways (in its own region, never the page). */
  minWidth: number;
  /**
   * The same below the `sm` breakpoint (a phone), where the columns shown from `sm` up are hidden: a
   * width the remaining columns fit in, so the list needs no sideways scrolling at 390 px.
   */
  narrowMinWidth?: number;
  testId?: string;
  table?: TableProps;
  /** A sentence under the table saying what its numbers are. */
  caption?: ReactNode;
}

/** The states, rows and pager of a paginated list query (GET /deals, /users, …) for DataTable and DataList. */
export function listOf<T>(
  query: { error: unknown; refetch: () => unknown; data?: { data: T[]; meta: Meta } },
  pager: Omit<Pager, "meta">,
): { query: States["query"]; rows: T[] | undefined; pager: Pager } {
  return { query, rows: query.data?.data, pager: { ...pager, meta: query.data?.meta } };
}

/** A list as a table: columns, a row per record, the four states and the pager (DataList). */
export function DataTable<T>(props: States & TableOptions<T> & { rows: T[] | undefined }) {
  return <DataList {...props}>{(rows) => <RecordTable {...props} rows={rows} />}</DataList>;
}

/** A table of records without the list states (the rows are known: a statement's lines). */
export function RecordTable<T>(props: TableOptions<T> & { rows: T[] }) {
  const { label, columns: allColumns, rows, rowProps, detail, detailProps, testId, table, caption } = props;
  const rowKey = props.rowKey ?? ((row: T) => (row as { id: string }).id);
  const narrow = useNarrow();
  const minWidth = narrow && props.narrowMinWidth !== undefined ? props.narrowMinWidth : props.minWidth;
  // A column for one side of the breakpoint only is left out on the other (not just hidden: a detail
  // row's colSpan counts what is there).
  const columns = allColumns.filter((column) => (narrow ? !column.visibleFrom : !column.hiddenFrom));
  return (
    <ScrollTable minWidth={minWidth} label={label}>
      <Table aria-label={label} data-testid={testId} {...table}>
        {caption}
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, i) => (
              <Table.Th
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed for a table's life
                key={i}
                scope="col"
                ta={column.numeric ? "right" : undefined}
                w={column.width}
                visibleFrom={column.visibleFrom}
                hiddenFrom={column.hiddenFrom}
                aria-sort={column.sort?.direction}
              >
                {column.sort ? <SortButton label={column.header} sort={column.sort} /> : column.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => {
            const opened = detail?.(row);
            return (
              <Fragment key={rowKey(row)}>
                <Table.Tr {...rowProps?.(row, index)}>
                  {columns.map((column, i) => {
                    const Cell = column.rowHeader ? Table.Th : Table.Td;
                    return (
                      <Cell
                        // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed for a table's life
                        key={i}
                        scope={column.rowHeader ? "row" : undefined}
                        // Classes, not style props: a style prop is computed and set on each cell, and a
                        // page of 300 rows has thousands (layout.css).
                        className={cellClass(column)}
                        data-col={column.id}
                        visibleFrom={column.visibleFrom}
                        hiddenFrom={column.hiddenFrom}
                        {...column.props?.(row)}
                      >
                        {column.cell(row, index)}
                      </Cell>
                    );
                  })}
                </Table.Tr>
                {opened && (
                  <Table.Tr {...detailProps?.(row)}>
                    <Table.Td colSpan={columns.length}>{opened}</Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}

function cellClass(column: { rowHeader?: boolean; numeric?: boolean }): string | undefined {
  if (column.rowHeader) return column.numeric ? "cell-row-header cell-numeric" : "cell-row-header";
  return column.numeric ? "cell-numeric" : undefined;
}

/** Below the `sm` breakpoint (a phone): where low-priority columns give way. */
function useNarrow(): boolean {
  const theme = useMantineTheme();
  return useMediaQuery(`(max-width: calc(${theme.breakpoints.sm} - 0.1px))`, false, { getInitialValueInEffect: false });
}

function SortButton({ label, sort }: { label: ReactNode; sort: NonNullable<Column<unknown>["sort"]> }) {
  const arrow = sort.direction === "ascending" ? " ▲" : sort.direction === "descending" ? " ▼" : "";
  return (
    <UnstyledButton onClick={sort.toggle} fw={600} fz="sm">
      {label}
      {arrow}
    </UnstyledButton>
  );
}
