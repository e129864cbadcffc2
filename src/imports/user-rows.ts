import type { z } from "zod";
import { requireFields } from "../access/index.js";
import type { Ctx } from "../context.js";
import { AppError } from "../errors.js";
import { IsoDate } from "../http/date-fields.js";
import { CreateUserBody, UpdateUserBody, type User } from "../users/index.js";
import { type Columns, cellOf } from "./columns.js";
import type { CsvRow } from "./csv.js";
import type { RowError, UserField } from "./schema.js";

/** The user fields a row may write (manager_id as the file names it: an id or an email). */
export type UserInput = Partial<Record<UserField, unknown>>;

/** One record row: the stored user it matches (by external_id, else email), what it writes, its problems. */
export interface UserRow {
  row: number;
  externalId: string | null;
  email: string | null;
  target: User | undefined;
  /** The fields the file gives (an empty cell already as null or the default); manager_id still as written. */
  input: UserInput;
  errors: RowError[];
}

const BOOLEAN = new Map([
  ["true", true],
  ["false", false],
]);

/** A row's cells as fields: absent columns left out, empty cells null or the default (API.md §19). */
function inputOf(
  row: CsvRow,
  columns: Columns<UserField>,
  today: string,
  problem: (f: UserField, m: string) => void,
): UserInput {
  const input: UserInput = {};
  const cell = (field: UserField) => cellOf(columns, row.cells, field);
  for (const field of ["external_id", "manager_id", "payroll_id"] as const) {
    const value = cell(field);
    if (value !== undefined) input[field] = value === "" ? null : value;
  }
  for (const field of ["name", "email"] as const) {
    const value = cell(field);
    if (value === "") problem(field, "is required");
    else if (value !== undefined) input[field] = value;
  }
  const role = cell("role");
  if (role !== undefined) input.role = role === "" ? "rep" : role;
  // From when the row's manager counts (API.md §16): stored with it, so only beside a manager_id cell.
  const from = cell("manager_effective_from");
  if (from) {
    const parsed = IsoDate.safeParse(from);
    if (!parsed.success) problem("manager_effective_from", parsed.error.issues[0]!.message);
    else if (from > today) problem("manager_effective_from", `must be today (${today}) or earlier`);
    else if (input.manager_id === undefined) {
      problem("manager_effective_from", "is read only with manager_id: the file needs a manager_id column");
    } else input.manager_effective_from = from;
  }
  const active = cell("active");
  if (active !== undefined) {
    const value = active === "" ? true : BOOLEAN.get(active.toLowerCase());
    if (value === undefined) problem("active", "must be true or false");
    else input.active = value;
  }
  return input;
}

/** The stored user a row names: its external_id's, else its email's. */
function matchOf(input: UserInput, stored: { byExternalId: Map<string, User>; byEmail: Map<string, User> }) {
  const byExternal = typeof input.external_id === "string" ? stored.byExternalId.get(input.external_id) : undefined;
  if (byExternal) return byExternal;
  return typeof input.email === "string" ? stored.byEmail.get(input.email.toLowerCase()) : undefined;
}

/** Checks the row's fields with the users routes' own schemas (a placeholder for the manager, checked apart). */
function schemaErrors(row: number, input: UserInput, target: User | undefined, seen: Set<string>): RowError[] {
  const body = { ...input, ...(input.manager_id ? { manager_id: "usr_placeholder" } : {}) };
  const schema: z.ZodType = target ? UpdateUserBody : CreateUserBody;
  const parsed = schema.safeParse(body);
  if (parsed.success) return [];
  return parsed.error.issues
    .filter((issue) => !seen.has(String(issue.path[0])))
    .map((issue) => ({ row, field: String(issue.path[0] ?? "") || null, message: issue.message }));
}

/** API.md §20 (a): a field the caller's scope or role may not set is the row's error, in requireFields' words. */
function privilegeErrors(ctx: Ctx, row: number, input: UserInput, target: User | undefined): RowError[] {
  const errors: RowError[] = [];
  for (const [field, value] of Object.entries(input)) {
    if (field === "manager_id") continue;
    try {
      if (target) requireFields(ctx, UpdateUserBody, { [field]: value }, target);
      else requireFields(ctx, CreateUserBody, { [field]: value });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      errors.push({ row, field, message: err.message });
    }
  }
  return errors;
}

export function readUserRow(
  ctx: Ctx,
  csvRow: CsvRow,
  columns: Columns<UserField>,
  stored: { byExternalId: Map<string, User>; byEmail: Map<string, User> },
  width: number,
): UserRow {
  const { row } = csvRow;
  const errors: RowError[] = [];
  const seen = new Set<string>();
  const problem = (field: UserField | null, message: string) => {
    if (field) seen.add(field);
    errors.push({ row, field, message });
  };
  const extra = csvRow.cells.slice(width).filter((c) => c !== "").length;
  if (extra > 0) problem(null, `has ${csvRow.cells.length} cells but the header names ${width} columns`);
  const input = inputOf(csvRow, columns, ctx.now.toISOString().slice(0, 10), problem);
  const target = matchOf(input, stored);
  if (!target && !columns.has("email")) problem("email", "is required to create a user (the file has no email column)");
  if (!target && !columns.has("name")) problem("name", "is required to create a user (the file has no name column)");
  errors.push(...schemaErrors(row, input, target, seen));
  if (errors.length === 0) errors.push(...privilegeErrors(ctx, row, input, target));
  return {
    row,
    externalId: typeof input.external_id === "string" ? input.external_id : null,
    email: typeof input.email === "string" ? input.email : null,
    target,
    input,
    errors,
  };
}

/**
 * Whether the row changes its stored user (its manager compared as resolved; manager_effective_from says
 * only from when a new manager counts, so the same manager is no change whatever the date).
 */
export function changesUser(target: User, input: UserInput, managerId: string | null | undefined): boolean {
  return Object.entries(input).some(([field, value]) => {
    if (field === "manager_id") return managerId !== undefined && managerId !== target.manager_id;
    if (field === "manager_effective_from") return false;
    return value !== undefined && target[field as keyof User] !== value;
  });
}
