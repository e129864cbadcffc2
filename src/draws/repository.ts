import { type Insertable, type Selectable, sql } from "kysely";
import type { Tx } from "../context.js";
import type { Db, DrawEntriesTable, DrawsTable } from "../db/schema.js";
import { anyOf } from "../db/sql.js";

// The SQL of draws (API.md §18): the draw rows, their settled periods and their entries.

export type DrawRow = Selectable<DrawsTable>;
export type DrawPeriodRow = { draw_id: string; period: string; payout_run_id: string; earned: string; advance: string };
export type DrawEntryRow = Selectable<DrawEntriesTable>;

export async function userExists(db: Db, id: string): Promise<boolean> {
  return (await db.selectFrom("users").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
}

/** Serializes draw writes per person (overlap checks, forgiveness against a balance). */
export async function lockUserDraws(tx: Tx, userId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('cts draws'), hashtext(${userId}))`.execute(tx);
}

/** Another draw of the person in the currency whose [starts_on, ends_on] meets this one. */
export async function overlapping(
  db: Db,
  d: { user_id: string; currency: string; starts_on: string; ends_on: string; except?: string },
): Promise<DrawRow | undefined> {
  let query = db
    .selectFrom("draws")
    .selectAll()
    .where("user_id", "=", d.user_id)
    .where("currency", "=", d.currency)
    .where("starts_on", "<=", d.ends_on)
    .where("ends_on", ">=", d.starts_on);
  if (d.except) query = query.where("id", "<>", d.except);
  return query.orderBy("starts_on").executeTakeFirst();
}

export async function insertDraw(tx: Tx, row: Insertable<DrawsTable>): Promise<DrawRow> {
  return tx.insertInto("draws").values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateDraw(tx: Tx, id: string, changes: Partial<Insertable<DrawsTable>>): Promise<DrawRow> {
  return tx.updateTable("draws").set(changes).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
}

export async function findDraw(db: Db, id: string): Promise<DrawRow | undefined> {
  return db.selectFrom("draws").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function lockDraw(tx: Tx, id: string): Promise<DrawRow | undefined> {
  return tx.selectFrom("draws").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

export async function insertEntry(tx: Tx, row: Insertable<DrawEntriesTable>): Promise<void> {
  await tx.insertInto("draw_entries").values(row).execute();
}

/** Each draw's settled periods and entries, oldest first. */
export async function detailsOf(
  db: Db,
  ids: string[],
): Promise<{ periods: Map<string, DrawPeriodRow[]>; entries: Map<string, DrawEntryRow[]> }> {
  const periods = new Map<string, DrawPeriodRow[]>(ids.map((id) => [id, []]));
  const entries = new Map<string, DrawEntryRow[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return { periods, entries };
  const [p, e] = await Promise.all([
    db
      .selectFrom("draw_periods")
      .select([
        "draw_id",
        "period",
        "payout_run_id",
        sql<string>`earned::text`.as("earned"),
        sql<string>`advance::text`.as("advance"),
      ])
      .where(anyOf("draw_id", ids))
      .orderBy("ends_on")
      .execute(),
    db
      .selectFrom("draw_entries")
      .selectAll()
      .where(anyOf("draw_id", ids))
      .orderBy("created_at")
      .orderBy("id")
      .execute(),
  ]);
  for (const r of p) periods.get(r.draw_id)!.push(r);
  for (const r of e) entries.get(r.draw_id)!.push(r);
  return { periods, entries };
}

export async function listDraws(
  db: Db,
  q: { user_id?: string; currency?: string; status?: ("active" | "ended")[]; today: string },
  visible: readonly string[] | null,
  limit: number,
  offset: number,
): Promise<{ rows: DrawRow[]; total: number }> {
  let query = db.selectFrom("draws");
  if (visible) query = query.where(anyOf("user_id", [...visible]));
  if (q.user_id) query = query.where("user_id", "=", q.user_id);
  if (q.currency) query = query.where("currency", "=", q.currency);
  if (q.status && q.status.length === 1) {
    query = query.where("ends_on", q.status[0] === "ended" ? "<" : ">=", q.today);
  }
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** The last day of the latest period a draft or finalized run settled (null: none). */
export async function lastSettledEnd(db: Db, drawId: string): Promise<string | null> {
  const row = await db
    .selectFrom("draw_periods")
    .select(sql<string | null>`max(ends_on)::text`.as("ends_on"))
    .where("draw_id", "=", drawId)
    .executeTakeFirstOrThrow();
  return row.ends_on;
}

export async function entriesOf(db: Db, drawId: string): Promise<DrawEntryRow[]> {
  return db.selectFrom("draw_entries").selectAll().where("draw_id", "=", drawId).execute();
}
