import type { ImportAction, ImportAnswer, ImportProblem } from "../../data/imports/mutations";
import { fieldLabel, type ImportResource } from "./fields";
import { type Choice, SKIP } from "./mapping";

// What the page shows of an import's answer (API.md §19): a row per row of the file with what it did
// or would do, and each error as a sentence naming the row as the spreadsheet numbers it and the
// column as the file names it ("Row 4, Amount: must have at most 2 decimal places for USD").

export interface Problem {
  /** The row as the spreadsheet shows it (the header is row 1); none for a problem of the whole file. */
  row: number | null;
  /** The column as the file names it (else the field's name in words); none for the whole row. */
  column: string | null;
  message: string;
}

/** What a table of rows is drawn from: a dry run's answer, or a refused import's errors alone. */
export interface RowsAnswer {
  errors: readonly ImportProblem[];
  rows?: ImportAnswer["rows"];
}

export interface ResultRow {
  row: number;
  externalId: string | null;
  action: ImportAction;
  problems: Problem[];
}

/** The file's name for a field: the header mapped to it, else the field in words, else as the API said it. */
export function columnNamer(resource: ImportResource, headers: readonly string[], choices: readonly Choice[]) {
  const byField = new Map<string, string>();
  headers.forEach((header, i) => {
    const choice = choices[i] ?? SKIP;
    if (choice !== SKIP && !byField.has(choice)) byField.set(choice, header);
  });
  return (field: string | null | undefined): string | null => {
    if (!field) return null;
    return byField.get(field) ?? fieldLabel(resource, field) ?? field;
  };
}

export type ColumnOf = ReturnType<typeof columnNamer>;

export const problemOf = (error: ImportProblem, columnOf: ColumnOf): Problem => ({
  row: error.row ?? null,
  column: columnOf(error.field),
  message: error.message,
});

/** "rows[4].arr_amount" → row 4, field arr_amount (a detail that names neither counts the rest). */
export function problemOfDetail(detail: {
  param: string;
  message: string;
  row?: unknown;
  field?: unknown;
}): ImportProblem {
  const named = /^rows\[(\d+)\](?:\.(.+))?$/.exec(detail.param);
  const row = typeof detail.row === "number" ? detail.row : named ? Number(named[1]) : null;
  const field = typeof detail.field === "string" ? detail.field : (named?.[2] ?? null);
  return { row, field, message: detail.message };
}

/** "Row 4, arr_amount: must have at most 2 decimal places for USD". */
export function problemText({ row, column, message }: Problem): string {
  const where = [row === null ? undefined : `Row ${row}`, column ?? undefined].filter(Boolean).join(", ");
  return where ? `${where}: ${message}` : message;
}

/**
 * Every row of a dry run's answer with its errors, in the file's order. A refused import (422) has no
 * `rows`: then a row per row its errors name, each an error.
 */
export function resultRows(answer: RowsAnswer, columnOf: ColumnOf): ResultRow[] {
  const problems = new Map<number, Problem[]>();
  for (const error of answer.errors) {
    if (error.row === null || error.row === undefined) continue;
    const list = problems.get(error.row) ?? [];
    list.push(problemOf(error, columnOf));
    problems.set(error.row, list);
  }
  if (answer.rows) {
    return answer.rows.map((row) => ({
      row: row.row,
      externalId: row.external_id ?? null,
      action: row.action,
      problems: problems.get(row.row) ?? [],
    }));
  }
  return [...problems.entries()]
    .sort(([a], [b]) => a - b)
    .map(([row, list]) => ({ row, externalId: null, action: "error", problems: list }));
}

/** Problems that name no row (the count of those left out of a long list): said above the table. */
export const fileProblems = (errors: readonly ImportProblem[], columnOf: ColumnOf): Problem[] =>
  errors.filter((error) => error.row === null || error.row === undefined).map((error) => problemOf(error, columnOf));

/** What a row did, or will do when the dry run is imported, in words. */
export const ACTION_WORDS = {
  dryRun: { create: "New", update: "Changed", unchanged: "Unchanged", error: "Error" },
  done: { create: "Created", update: "Updated", unchanged: "Unchanged", error: "Error" },
} as const satisfies Record<string, Record<ImportAction, string>>;
