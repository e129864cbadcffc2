import { type Ctx, requireScope, type Tx, withTransaction } from "../context.js";
import { AppError } from "../errors.js";
import { turnIfDue } from "../event-loop.js";
import {
  CreateUserBody,
  createUserRecalculating,
  managerLinks,
  openReportingLineStarts,
  UpdateUserBody,
  type User,
  updateUserRecalculating,
  usersNamed,
} from "../users/index.js";
import { type Columns, cellOf, resolveColumns } from "./columns.js";
import { type CsvTable, readCsv } from "./csv.js";
import { auditImport, countsOf, dryRunResult, type RowOutcome, throwIfRowErrors } from "./report.js";
import { type ImportQuery, type ImportResult, USER_FIELDS, type UserField } from "./schema.js";
import { isEmail } from "./user-cells.js";
import { changesUser, readUserRow, type UserRow } from "./user-rows.js";

type CsvFile = CsvTable & { columns: Columns<UserField> };

/** A user as the file will leave it: a stored user's id, or `row:N` for the user row N creates. */
type Ref = string;
const refOf = (r: UserRow): Ref => r.target?.id ?? `row:${r.row}`;

interface Stored {
  byId: Map<string, User>;
  byEmail: Map<string, User>;
  byExternalId: Map<string, User>;
  byPayrollId: Map<string, User>;
}

async function storedUsers(tx: Tx, file: CsvFile): Promise<Stored> {
  const values = (field: UserField) =>
    file.rows.map((r) => cellOf(file.columns, r.cells, field)).filter((v): v is string => !!v);
  const managers = values("manager_id");
  const users = await usersNamed(tx, {
    ids: managers.filter((m) => !isEmail(m)),
    emails: [...values("email"), ...managers.filter(isEmail)],
    externalIds: values("external_id"),
    payrollIds: values("payroll_id"),
  });
  const by = (key: (u: User) => string | null) =>
    new Map(users.flatMap((u) => (key(u) === null ? [] : [[key(u)!, u] as const])));
  return {
    byId: by((u) => u.id),
    byEmail: by((u) => u.email.toLowerCase()),
    byExternalId: by((u) => u.external_id),
    byPayrollId: by((u) => u.payroll_id),
  };
}

/** Emails, external ids and payroll ids once per file and not another stored user's; a stored user matched once. */
function uniquenessErrors(rows: UserRow[], stored: Stored): void {
  const firsts = new Map<string, number>();
  const once = (r: UserRow, field: UserField, key: string, what: string) => {
    const first = firsts.get(`${field}\n${key}`);
    if (first === undefined) firsts.set(`${field}\n${key}`, r.row);
    else r.errors.push({ row: r.row, field, message: `repeats row ${first} (${what}); each user once per file` });
  };
  for (const r of rows) {
    const { input, target } = r;
    const taken = (field: UserField, holder: User | undefined, value: string) => {
      if (holder && holder.id !== target?.id) {
        r.errors.push({ row: r.row, field, message: `${value} is already ${holder.id}'s (${holder.email})` });
      }
    };
    const sameUser = target && firsts.get(`user\n${target.id}`);
    if (sameUser) r.errors.push({ row: r.row, field: null, message: `matches ${target.id}, as row ${sameUser} does` });
    else if (target) firsts.set(`user\n${target.id}`, r.row);
    if (typeof input.email === "string") {
      once(r, "email", input.email.toLowerCase(), input.email);
      taken("email", stored.byEmail.get(input.email.toLowerCase()), input.email);
    }
    if (typeof input.external_id === "string") {
      once(r, "external_id", `x:${input.external_id}`, input.external_id);
      taken("external_id", stored.byExternalId.get(input.external_id), input.external_id);
    }
    if (typeof input.payroll_id === "string") {
      once(r, "payroll_id", input.payroll_id, input.payroll_id);
      taken("payroll_id", stored.byPayrollId.get(input.payroll_id), input.payroll_id);
    }
  }
}

/**
 * Each row's manager as a Ref (undefined: the file has no manager_id column; null: none): an id, or an
 * email of a row of the file or of a stored user. Then the reporting lines as the import leaves them
 * must have no cycle.
 */
async function resolveManagers(tx: Tx, rows: UserRow[], stored: Stored, file: CsvFile) {
  const managers = new Map<UserRow, Ref | null>();
  if (!file.columns.has("manager_id")) return managers;
  const rowsByEmail = new Map(rows.flatMap((r) => (r.email ? [[r.email.toLowerCase(), r] as const] : [])));
  for (const r of rows) {
    const cell = r.input.manager_id as string | null | undefined;
    if (cell === undefined) continue;
    if (cell === null) {
      managers.set(r, null);
      continue;
    }
    const inFile = isEmail(cell) ? rowsByEmail.get(cell.toLowerCase()) : undefined;
    const ref = inFile
      ? refOf(inFile)
      : (isEmail(cell) ? stored.byEmail.get(cell.toLowerCase()) : stored.byId.get(cell))?.id;
    if (ref === undefined) {
      const message = isEmail(cell)
        ? `no user has the email ${cell} (stored or in this file)`
        : `user ${cell} does not exist`;
      r.errors.push({ row: r.row, field: "manager_id", message });
    } else if (ref === refOf(r))
      r.errors.push({ row: r.row, field: "manager_id", message: "cannot be the user itself" });
    else managers.set(r, ref);
  }
  const links: Map<Ref, Ref | null> = await managerLinks(tx);
  for (const [r, ref] of managers) links.set(refOf(r), ref);
  for (const [r, ref] of managers) {
    const chain = [refOf(r)];
    for (let at = ref; at != null && chain.length <= links.size; at = links.get(at) ?? null) {
      chain.push(at);
      if (at === refOf(r)) {
        const names = chain.map((c) => (c.startsWith("row:") ? `row ${c.slice(4)}` : c));
        r.errors.push({ row: r.row, field: "manager_id", message: `would form a cycle: ${names.join(" → ")}` });
        break;
      }
    }
  }
  return managers;
}

/**
 * A new manager counts from manager_effective_from, which may not be before the stored user's open
 * reporting line starts (API.md §16, as PATCH /users/{id}): checked for the rows that change a manager.
 */
async function effectiveDateErrors(tx: Tx, rows: UserRow[], managers: Map<UserRow, Ref | null>): Promise<void> {
  const moving = rows.filter((r) => {
    const ref = managers.get(r);
    return (
      r.target && typeof r.input.manager_effective_from === "string" && ref !== undefined && ref !== r.target.manager_id
    );
  });
  const starts = await openReportingLineStarts(
    tx,
    moving.map((r) => r.target!.id),
  );
  for (const r of moving) {
    const start = starts.get(r.target!.id);
    if (start !== undefined && (r.input.manager_effective_from as string) < start) {
      r.errors.push({
        row: r.row,
        field: "manager_effective_from",
        message: `must be on or after ${start}, when the user's current reporting line starts`,
      });
    }
  }
}

/** A row's write refused by the users service (a cycle on a past date): the import's 422, in the file's terms. */
async function asRowErrors<T>(r: UserRow, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== "validation_error" || !err.details) throw err;
    const errors = err.details.map((d) => ({ row: r.row, field: d.param as UserField, message: d.message }));
    throwIfRowErrors([{ row: r.row, externalId: r.externalId, action: "error", errors }]);
    throw err;
  }
}

/** Rows in an order where every manager a row creates comes before the rows reporting to it. */
function managersFirst(rows: UserRow[], managers: Map<UserRow, Ref | null>): UserRow[] {
  const byRef = new Map(rows.map((r) => [refOf(r), r]));
  const depth = new Map<UserRow, number>();
  const depthOf = (r: UserRow): number => {
    const known = depth.get(r);
    if (known !== undefined) return known;
    const ref = managers.get(r);
    const above = ref?.startsWith("row:") ? byRef.get(ref) : undefined;
    const d = above ? depthOf(above) + 1 : 0;
    depth.set(r, d);
    return d;
  };
  return [...rows].sort((a, b) => depthOf(a) - depthOf(b) || a.row - b.row);
}

/**
 * POST /imports/users (API.md §19): each row matches a stored user by external_id, else email, and
 * creates or updates it through the users service (its rules, privileges and audit rows), managers
 * before the rows that report to them, in one transaction; a dry run writes nothing.
 */
export async function importUsers(ctx: Ctx, text: string, query: ImportQuery): Promise<ImportResult> {
  requireScope(ctx, "write");
  const table = await readCsv(text);
  const file: CsvFile = { ...table, columns: resolveColumns(table.header, query.map, USER_FIELDS, []) };
  return withTransaction(ctx, async (tx) => {
    const stored = await storedUsers(tx, file);
    const rows = file.rows.map((r) => readUserRow(ctx, r, file.columns, stored, file.header.length));
    uniquenessErrors(rows, stored);
    const managers = await resolveManagers(tx, rows, stored, file);
    await effectiveDateErrors(tx, rows, managers);
    const outcomes: RowOutcome[] = rows.map((r) => {
      const manager = managers.get(r);
      const action =
        r.errors.length > 0
          ? "error"
          : !r.target
            ? "create"
            : changesUser(r.target, r.input, manager?.startsWith("row:") ? `new ${manager}` : manager)
              ? "update"
              : "unchanged";
      return { row: r.row, externalId: r.externalId, action, errors: r.errors };
    });
    if (query.dry_run) return dryRunResult(outcomes);
    throwIfRowErrors(outcomes);
    const inTx = { ...ctx, db: tx };
    const created = new Map<Ref, string>();
    const actions = new Map(outcomes.map((o) => [o.row, o.action]));
    // A reporting change may leave override lines to a background recalculation: the last one's id.
    let recalculationJobId: string | null = null;
    for (const r of managersFirst(rows, managers)) {
      const action = actions.get(r.row);
      if (action !== "create" && action !== "update") continue;
      const ref = managers.get(r);
      const managerId = ref === undefined ? {} : { manager_id: ref === null ? null : (created.get(ref) ?? ref) };
      const body = { ...r.input, ...managerId };
      const written = await asRowErrors(r, () =>
        action === "create"
          ? createUserRecalculating(inTx, CreateUserBody.parse(body))
          : updateUserRecalculating(inTx, r.target!.id, UpdateUserBody.parse(body)),
      );
      if (action === "create") created.set(refOf(r), written.user.id);
      recalculationJobId = written.recalculationJobId ?? recalculationJobId;
      const turn = turnIfDue();
      if (turn) await turn;
    }
    const counts = countsOf(outcomes);
    await auditImport(tx, ctx, "users", { text, rows: outcomes.length }, counts);
    return { ...counts, errors: [], recalculation_job_id: recalculationJobId };
  });
}
