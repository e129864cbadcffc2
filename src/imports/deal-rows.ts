import type { z } from "zod";
import { BulkItem, type StoredDealInput, type UpsertCheck } from "../deals/index.js";
import { minorUnitMessage, minorUnitProblems } from "../http/commission-fields.js";
import { type Columns, cellOf } from "./columns.js";
import type { CsvRow } from "./csv.js";
import type { DealField, RowError } from "./schema.js";
import type { UserCells } from "./user-cells.js";

/** A plain decimal as API.md §19 writes numbers in a file: `1234.5`, no sign, exponent or separators. */
const PLAIN_NUMBER = /^\d+(\.\d+)?$/;
const PLAIN_MESSAGE = "must be a plain number such as 1234.5 (no currency sign, thousands separator or exponent)";

/** One record row read as a PUT /deals/by-external-id body, or the problems found in its cells. */
export interface DealRow {
  row: number;
  externalId: string | null;
  item: BulkItem | undefined;
  errors: RowError[];
}

type Input = Record<string, unknown>;

const listOf = (cell: string) => cell.split(";").map((s) => s.trim());

/**
 * The splits columns (two `;` lists of equal length): both empty → null (the owner at 100, following
 * the owner); a file without both keeps the stored splits; a file with one takes the other's stored list.
 */
function splitsOf(
  ids: string | undefined,
  percents: string | undefined,
  stored: StoredDealInput | undefined,
  users: UserCells,
  problem: (field: DealField, message: string) => void,
): Input["splits"] {
  if (ids === undefined && percents === undefined) return stored ? stored.splits : undefined;
  const storedIds = stored?.splits?.map((s) => s.user_id).join(";") ?? "";
  const storedPercents = stored?.splits?.map((s) => String(s.percent)).join(";") ?? "";
  const idCell = ids ?? storedIds;
  const percentCell = percents ?? storedPercents;
  if (idCell === "" && percentCell === "") return null;
  if (idCell === "") return problem("split_user_ids", "is required with split_percents (give both or neither)");
  if (percentCell === "") return problem("split_percents", "is required with split_user_ids (give both or neither)");
  const userCells = listOf(idCell);
  const percentCells = listOf(percentCell);
  if (userCells.length !== percentCells.length) {
    return problem(
      "split_percents",
      `lists ${percentCells.length} percents for the ${userCells.length} users of split_user_ids (one each, in order)`,
    );
  }
  const splits: { user_id: string; percent: number }[] = [];
  userCells.forEach((cell, i) => {
    const id = users.idOf(cell);
    if (id === undefined) problem("split_user_ids", users.unknownMessage(cell));
    const percent = percentCells[i]!;
    if (!PLAIN_NUMBER.test(percent)) problem("split_percents", `${PLAIN_MESSAGE} (percent ${i + 1}: "${percent}")`);
    splits.push({ user_id: id ?? cell, percent: Number(percent) });
  });
  return splits;
}

/** The fields of one row as an upsert body: the stored deal's where the file has no column, its cells where it has. */
function inputOf(
  row: CsvRow,
  columns: Columns<DealField>,
  stored: StoredDealInput | undefined,
  users: UserCells,
  problem: (field: DealField, message: string) => void,
): Input {
  const input: Input = stored ? { ...stored } : {};
  const cell = (field: DealField) => cellOf(columns, row.cells, field);
  const required = (field: DealField, value: string | undefined, as: (v: string) => unknown = (v) => v) => {
    if (value === undefined) return;
    if (value === "") problem(field, "is required");
    else input[field] = as(value);
  };
  const defaulted = (field: DealField, value: string | undefined) => {
    if (value === "") delete input[field];
    else if (value !== undefined) input[field] = value;
  };
  const nullable = (field: DealField, value: string | undefined) => {
    if (value !== undefined) input[field] = value === "" ? null : value;
  };
  required("opportunity_name", cell("opportunity_name"));
  required("arr_amount", cell("arr_amount"), (v) => {
    if (!PLAIN_NUMBER.test(v)) problem("arr_amount", PLAIN_MESSAGE);
    return Number(v);
  });
  defaulted("currency", cell("currency"));
  defaulted("deal_type", cell("deal_type"));
  required("close_date", cell("close_date"));
  required("owner_id", cell("owner_id"), (v) => {
    const id = users.idOf(v);
    if (id === undefined) problem("owner_id", users.unknownMessage(v));
    return id ?? v;
  });
  nullable("contract_start", cell("contract_start"));
  nullable("contract_end", cell("contract_end"));
  const splits = splitsOf(cell("split_user_ids"), cell("split_percents"), stored, users, problem);
  if (splits !== undefined) input.splits = splits;
  return input;
}

/** API.md §15: arr_amount in the deal currency's decimals, said with the row's other problems. */
function moneyProblems(input: Input, problem: (field: DealField, message: string) => undefined): void {
  const amount = input.arr_amount;
  if (typeof amount !== "number" || !Number.isFinite(amount)) return;
  const currency = typeof input.currency === "string" ? input.currency : "USD";
  for (const p of minorUnitProblems(currency, { arr_amount: amount })) problem("arr_amount", p.message);
}

/** A zod issue of BulkItem as the file's field and the contract's words (API.md §19's example). */
function fieldProblem(issue: z.core.$ZodIssue, input: Input): [DealField, string] {
  const [top, index, leaf] = issue.path as [string, number | undefined, string | undefined];
  if (top === "splits") {
    if (index === undefined) return ["split_percents", issue.message.replace(/^percents /, "")];
    if (leaf !== "user_id") return ["split_percents", `${issue.message} (percent ${index + 1})`];
    const id = (input.splits as { user_id: string }[])[index]!.user_id;
    return ["split_user_ids", issue.message.startsWith("repeats") ? `lists ${id} twice` : `${issue.message} (${id})`];
  }
  if (top === "arr_amount" && issue.message.includes("decimal places")) {
    // API.md §19's words: the places allowed are the deal's currency's (§15).
    return ["arr_amount", minorUnitMessage(typeof input.currency === "string" ? input.currency : "USD")];
  }
  return [top as DealField, issue.message];
}

/** Where a bulk-upsert problem of one item (`owner_id`, `splits[1].user_id`, "") lies in the file. */
function fieldOfParam(param: string): DealField | null {
  if (param === "") return null;
  if (param.startsWith("splits")) return param.endsWith("user_id") ? "split_user_ids" : "split_percents";
  return param as DealField;
}

/**
 * Reads one record row into an upsert item (BulkItem's own validation, then its messages in the file's
 * terms): a problem of the cells is an error of that field, never a guess. `stored` is the deal holding
 * the row's external_id, if any.
 */
export function readDealRow(
  row: CsvRow,
  columns: Columns<DealField>,
  stored: (externalId: string) => StoredDealInput | undefined,
  users: UserCells,
  width: number,
): DealRow {
  const errors: RowError[] = [];
  const seen = new Set<DealField>();
  const problem = (field: DealField | null, message: string): undefined => {
    if (field !== null) seen.add(field);
    errors.push({ row: row.row, field, message });
    return undefined;
  };
  const extra = row.cells.slice(width).filter((c) => c !== "").length;
  if (extra > 0) problem(null, `has ${row.cells.length} cells but the header names ${width} columns`);
  const externalId = cellOf(columns, row.cells, "external_id") || null;
  if (externalId === null) {
    problem("external_id", "is required");
    return { row: row.row, externalId, item: undefined, errors };
  }
  const input = inputOf(row, columns, stored(externalId), users, problem);
  input.external_id = externalId;
  if (!seen.has("arr_amount")) moneyProblems(input, problem);
  const parsed = BulkItem.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [field, message] = fieldProblem(issue, input);
      if (!seen.has(field)) errors.push({ row: row.row, field, message });
    }
  }
  return { row: row.row, externalId, item: errors.length === 0 ? parsed.data : undefined, errors };
}

/** The bulk upsert's verdict on a row's item, as the row's errors. */
export function checkErrors(row: number, check: UpsertCheck): RowError[] {
  if (check.action !== "error") return [];
  return check.problems.map((p) => ({ row, field: fieldOfParam(p.param), message: p.message }));
}
