import { sql } from "kysely";
import type { Tx } from "../context.js";
import type { Db } from "../db/schema.js";
import { anyOf } from "../db/sql.js";
import type { ReportingLine, UserReportingLine } from "./schema.js";

const COLUMNS = ["user_id", "manager_id", "effective_from", "effective_to"] as const;
/** The open end of a span, as a date SQL compares with. */
const LAST_DAY = sql<string>`DATE '9999-12-31'`;

/** A user's history, oldest first. */
export async function linesOf(db: Db, userId: string): Promise<ReportingLine[]> {
  return db
    .selectFrom("reporting_lines")
    .select(["manager_id", "effective_from", "effective_to"])
    .where("user_id", "=", userId)
    .orderBy("effective_from")
    .execute();
}

/** Every span in force on some day of [from, to] (`to` null: open), of everyone, by user then date. */
export async function linesBetween(db: Db, from: string, to: string | null): Promise<UserReportingLine[]> {
  return db
    .selectFrom("reporting_lines")
    .select(COLUMNS)
    .where((eb) =>
      eb.and([
        ...(to === null ? [] : [eb("effective_from", "<=", to)]),
        eb.or([eb("effective_to", "is", null), eb("effective_to", ">=", from)]),
      ]),
    )
    .orderBy("user_id")
    .orderBy("effective_from")
    .execute();
}

/** The start of each of these users' open line (users without one are left out). */
export async function openLineStarts(db: Db, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("reporting_lines")
    .select(["user_id", "effective_from"])
    .where(anyOf("user_id", userIds))
    .where("effective_to", "is", null)
    .execute();
  return new Map(rows.map((r) => [r.user_id, r.effective_from]));
}

/** Everyone who ever reported to `userId`, directly or below, on any date (themself left out). */
export async function everBelow(db: Db, userId: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    WITH RECURSIVE below(id) AS (
      SELECT ${userId}::text
      UNION
      SELECT r.user_id FROM reporting_lines r JOIN below b ON r.manager_id = b.id
    )
    SELECT id FROM below WHERE id <> ${userId} ORDER BY id`.execute(db);
  return rows.map((r) => r.id);
}

/**
 * Reporting writes take turns, before they lock a user: a cycle check reads other people's lines, so two
 * writes that would close a loop between them (A under B, B under A) must not both pass.
 */
export async function lockReportingLines(tx: Tx): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(7150425, 1)`.execute(tx);
}

/** Replaces a user's whole history with `lines` (already validated, ends set). */
export async function replaceLines(tx: Tx, userId: string, lines: ReportingLine[]): Promise<void> {
  await tx.deleteFrom("reporting_lines").where("user_id", "=", userId).execute();
  if (lines.length === 0) return;
  await tx
    .insertInto("reporting_lines")
    .values(lines.map((l) => ({ user_id: userId, ...l })))
    .execute();
}

/** A loop a new span would close: the chain from its manager up to the user, and the days it holds. */
export interface Cycle {
  chain: string[];
  from: string;
  to: string;
}

/**
 * Whether giving `userId` the manager `managerId` over [from, to] (`to` null: open) closes a loop on some
 * day: walks up from the manager through everyone's dated lines, narrowing the days at each step, until
 * it reaches the user. The user's own lines are never walked (the walk stops at them), so the history
 * being replaced does not count. The earliest loop, if any.
 */
export async function cycleThrough(
  db: Db,
  userId: string,
  managerId: string,
  from: string,
  to: string | null,
): Promise<Cycle | undefined> {
  const { rows } = await sql<{ lo: string; hi: string; chain: string[] }>`
    WITH RECURSIVE up(id, lo, hi, chain) AS (
      SELECT ${managerId}::text, ${from}::date, COALESCE(${to}::date, ${LAST_DAY}), ARRAY[${managerId}::text]
      UNION ALL
      SELECT r.manager_id, GREATEST(up.lo, r.effective_from), LEAST(up.hi, COALESCE(r.effective_to, ${LAST_DAY})),
             up.chain || r.manager_id
      FROM up JOIN reporting_lines r ON r.user_id = up.id
      WHERE up.id <> ${userId}
        AND r.manager_id IS NOT NULL
        AND NOT (r.manager_id = ANY(up.chain))
        AND r.effective_from <= up.hi
        AND COALESCE(r.effective_to, ${LAST_DAY}) >= up.lo
    )
    SELECT lo::text AS lo, hi::text AS hi, chain FROM up WHERE id = ${userId} ORDER BY lo LIMIT 1`.execute(db);
  const row = rows[0];
  return row && { chain: row.chain, from: row.lo, to: row.hi };
}
