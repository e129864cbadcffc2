import { Badge, Group, List, Pagination, Paper, SegmentedControl, SimpleGrid, Stack, Text } from "@mantine/core";
import { useMemo, useState } from "react";
import type { ImportAction, ImportAnswer } from "../../data/imports/mutations";
import { decimal } from "../../lib/format";
import { type Column, RecordTable } from "../../ui/DataTable";
import {
  ACTION_WORDS,
  type ColumnOf,
  fileProblems,
  problemText,
  type ResultRow,
  type RowsAnswer,
  resultRows,
} from "./result";

/** Rows a page of the table shows: 50,000 rows stay quick, since only a page is ever drawn. */
export const RESULT_PAGE_SIZE = 50;

const ACTION_COLORS = { create: "green", update: "blue", unchanged: "gray", error: "red" } as const satisfies Record<
  ImportAction,
  string
>;

interface CountsProps {
  answer: Pick<ImportAnswer, "created" | "updated" | "unchanged">;
  errorRows?: number;
  done: boolean;
}

/** How many rows each outcome has: what the import will do (a dry run) or did. */
export function ResultCounts({ answer, errorRows, done }: CountsProps) {
  const words = done ? ACTION_WORDS.done : ACTION_WORDS.dryRun;
  const counts: [ImportAction, number | undefined][] = [
    ["create", answer.created],
    ["update", answer.updated],
    ["unchanged", answer.unchanged],
    ["error", errorRows],
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
      {counts.map(([action, count]) =>
        count === undefined ? null : (
          <Paper key={action} withBorder p="sm" radius="md" data-testid={`count-${action}`}>
            <Text size="sm" c="gray.7">
              {action === "error" ? "Rows with errors" : words[action]}
            </Text>
            <Text size="xl" fw={700} c={action === "error" && count > 0 ? "red.9" : undefined} data-count={count}>
              {decimal(count)}
            </Text>
          </Paper>
        ),
      )}
    </SimpleGrid>
  );
}

interface ResultTableProps {
  /** A dry run's answer (every row), or a refused import's errors (the rows they name). */
  answer: RowsAnswer;
  columnOf: ColumnOf;
  /** The rows will be imported (a dry run) or were refused (nothing written). */
  done: boolean;
}

/** Every row's outcome, a page at a time, filtered to the rows with errors when there are any. */
export function ResultTable({ answer, columnOf, done }: ResultTableProps) {
  const rows = useMemo(() => resultRows(answer, columnOf), [answer, columnOf]);
  const wrong = useMemo(() => rows.filter((row) => row.problems.length > 0 || row.action === "error"), [rows]);
  const whole = useMemo(() => fileProblems(answer.errors, columnOf), [answer, columnOf]);
  const [onlyErrors, setOnlyErrors] = useState(wrong.length > 0);
  const [page, setPage] = useState(1);
  const shown = onlyErrors ? wrong : rows;
  const pages = Math.max(1, Math.ceil(shown.length / RESULT_PAGE_SIZE));
  const current = Math.min(page, pages);
  const words = done ? ACTION_WORDS.done : ACTION_WORDS.dryRun;
  const columns: Column<ResultRow>[] = [
    { header: "Row", id: "row", cell: (row) => row.row, rowHeader: true, numeric: true, width: 80 },
    {
      header: "External ID",
      id: "external-id",
      cell: (row) => row.externalId ?? "—",
      props: () => ({ style: { whiteSpace: "nowrap" } }),
    },
    {
      header: "Result",
      id: "action",
      width: 120,
      cell: (row) => (
        <Badge color={ACTION_COLORS[row.action]} variant="light">
          {words[row.action]}
        </Badge>
      ),
    },
    {
      header: "Problem",
      id: "problem",
      cell: (row) =>
        row.problems.length === 0 ? (
          ""
        ) : (
          <Stack gap={2}>
            {row.problems.map((problem, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a row's problems are fixed for an answer
              <Text key={i} size="sm" c="red.9" data-testid="row-problem">
                {problemText(problem)}
              </Text>
            ))}
          </Stack>
        ),
    },
  ];
  return (
    <Stack gap="sm">
      {whole.length > 0 && (
        <List size="sm" c="red.9" data-testid="file-problems">
          {whole.map((problem) => (
            <List.Item key={problem.message}>{problemText(problem)}</List.Item>
          ))}
        </List>
      )}
      {answer.rows && (
        <SegmentedControl
          aria-label="Rows shown"
          w="fit-content"
          value={onlyErrors ? "errors" : "all"}
          onChange={(value) => {
            setOnlyErrors(value === "errors");
            setPage(1);
          }}
          data={[
            { value: "all", label: `All rows (${decimal(rows.length)})` },
            { value: "errors", label: `Rows with errors (${decimal(wrong.length)})` },
          ]}
        />
      )}
      {shown.length === 0 ? (
        <Text size="sm" c="gray.7">
          No row has an error.
        </Text>
      ) : (
        <RecordTable
          label="Rows of the file"
          testId="import-rows"
          minWidth={720}
          table={{ striped: true, verticalSpacing: "xs" }}
          columns={columns}
          rows={shown.slice((current - 1) * RESULT_PAGE_SIZE, current * RESULT_PAGE_SIZE)}
          rowKey={(row) => String(row.row)}
          rowProps={(row) => ({ "data-row": row.row, "data-action": row.action })}
        />
      )}
      {pages > 1 && (
        <Group justify="space-between">
          <Text size="sm" c="gray.7">
            Rows {decimal((current - 1) * RESULT_PAGE_SIZE + 1)}–
            {decimal(Math.min(shown.length, current * RESULT_PAGE_SIZE))} of {decimal(shown.length)}
          </Text>
          <nav aria-label="Pages of rows">
            <Pagination
              total={pages}
              value={current}
              onChange={setPage}
              size="sm"
              getItemProps={(n) => ({ "aria-label": `Page ${n}`, "aria-current": n === current ? "page" : undefined })}
              getControlProps={(control) => ({ "aria-label": `${control[0]?.toUpperCase()}${control.slice(1)} page` })}
            />
          </nav>
        </Group>
      )}
    </Stack>
  );
}
