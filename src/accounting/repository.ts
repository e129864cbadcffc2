import { type Insertable, type Selectable, sql } from "kysely";
import type { Tx } from "../context.js";
import type { AccountingAssetsTable, AccountingEventsTable, AccountingPostingsTable, Db } from "../db/schema.js";
import { anyOf } from "../db/sql.js";

// The SQL of commission-cost accounting (API.md §17): the settings row, the assets, what moved them and
// their postings.

export type AssetRow = Selectable<AccountingAssetsTable>;
export type EventRow = Selectable<AccountingEventsTable>;
export type PostingRow = Insertable<AccountingPostingsTable>;

export interface SettingsRow {
  settings: Record<string, unknown>;
  assets_built_at: Date | null;
  updated_at: Date;
}

export async function readSettings(db: Db): Promise<SettingsRow> {
  return db
    .selectFrom("accounting_settings")
    .select(["settings", "assets_built_at", "updated_at"])
    .executeTakeFirstOrThrow() as Promise<SettingsRow>;
}

/** The row locked: settings writes and the one-time build of earlier approvals serialize on it. */
export async function lockSettings(tx: Tx): Promise<SettingsRow> {
  return tx
    .selectFrom("accounting_settings")
    .select(["settings", "assets_built_at", "updated_at"])
    .forUpdate()
    .executeTakeFirstOrThrow() as Promise<SettingsRow>;
}

export async function writeSettings(tx: Tx, settings: Record<string, unknown>, now: Date): Promise<SettingsRow> {
  return tx
    .updateTable("accounting_settings")
    .set({ settings: JSON.stringify(settings) as never, updated_at: now })
    .returning(["settings", "assets_built_at", "updated_at"])
    .executeTakeFirstOrThrow() as Promise<SettingsRow>;
}

export async function markAssetsBuilt(tx: Tx, now: Date): Promise<void> {
  await tx.updateTable("accounting_settings").set({ assets_built_at: now }).execute();
}

/** The deal as booking reads it. */
export interface BookedDeal {
  id: string;
  approved_at: Date | null;
  contract_start: string | null;
  contract_end: string | null;
  cancelled_at: Date | null;
}

export async function findBookedDeal(db: Db, dealId: string): Promise<BookedDeal | undefined> {
  return db
    .selectFrom("deals")
    .select(["id", "approved_at", "contract_start", "contract_end", "cancelled_at"])
    .where("id", "=", dealId)
    .executeTakeFirst();
}

/** A line of the deal that books something: what an asset is made of, or what moves one. */
export interface DealLine {
  id: string;
  user_id: string;
  plan_id: string | null;
  kind: string;
  currency: string;
  amount: string;
  adjusts_line_id: string | null;
  created_at: Date;
}

/** The deal's non-void lines of these kinds, in line order (created_at, id). */
export async function dealLines(db: Db, dealId: string, kinds: readonly string[]): Promise<DealLine[]> {
  return db
    .selectFrom("commission_lines")
    .select(["id", "user_id", "plan_id", "kind", "currency", "amount", "adjusts_line_id", "created_at"])
    .where("deal_id", "=", dealId)
    .where("status", "<>", "void")
    .where(anyOf("kind", [...kinds]))
    .orderBy("created_at")
    .orderBy("id")
    .execute() as Promise<DealLine[]>;
}

export async function insertAssets(tx: Tx, rows: Insertable<AccountingAssetsTable>[]): Promise<void> {
  if (rows.length > 0)
    await tx
      .insertInto("accounting_assets")
      .values(rows)
      .onConflict((c) => c.doNothing())
      .execute();
}

/** The deal's assets in line order. */
export async function assetsOfDeal(db: Db, dealId: string): Promise<AssetRow[]> {
  return db
    .selectFrom("accounting_assets as a")
    .innerJoin("commission_lines as l", "l.id", "a.line_id")
    .selectAll("a")
    .where("a.deal_id", "=", dealId)
    .orderBy("l.created_at")
    .orderBy("a.line_id")
    .execute();
}

export async function insertPostings(tx: Tx, postings: PostingRow[]): Promise<void> {
  for (let i = 0; i < postings.length; i += 1000) {
    await tx
      .insertInto("accounting_postings")
      .values(postings.slice(i, i + 1000))
      .execute();
  }
}

/** Replaces what the deal's assets were moved by and their postings; moves their last months. */
export async function replaceBooking(
  tx: Tx,
  dealId: string,
  events: Insertable<AccountingEventsTable>[],
  postings: PostingRow[],
  lastMonths: Map<string, number>,
): Promise<void> {
  await sql`
    WITH assets AS (SELECT line_id FROM accounting_assets WHERE deal_id = ${dealId}),
      gone AS (DELETE FROM accounting_events WHERE line_id IN (SELECT line_id FROM assets))
    DELETE FROM accounting_postings WHERE line_id IN (SELECT line_id FROM assets)`.execute(tx);
  if (events.length > 0) await tx.insertInto("accounting_events").values(events).execute();
  await insertPostings(tx, postings);
  if (lastMonths.size > 0) {
    const ids = [...lastMonths.keys()];
    const months = ids.map((id) => lastMonths.get(id)!);
    await sql`
      UPDATE accounting_assets a SET last_month = m.last_month
      FROM unnest(${ids}::text[], ${months}::int[]) AS m (line_id, last_month)
      WHERE a.line_id = m.line_id`.execute(tx);
  }
}

/** Deals approved before accounting existed that have no asset yet, oldest approval first. */
export async function dealsApprovedWithoutAssets(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom("deals as d")
    .select("d.id")
    .where("d.approved_at", "is not", null)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom("accounting_assets as a").select("a.line_id").whereRef("a.deal_id", "=", "d.id"))),
    )
    .orderBy("d.approved_at")
    .orderBy("d.id")
    .execute();
  return rows.map((r) => r.id);
}

// Reports.

export interface AssetFilter {
  deal_id?: string | undefined;
  user_id?: string | undefined;
  month?: number | undefined;
}

function filtered(db: Db, f: AssetFilter) {
  let q = db.selectFrom("accounting_assets");
  if (f.deal_id !== undefined) q = q.where("deal_id", "=", f.deal_id);
  if (f.user_id !== undefined) q = q.where("user_id", "=", f.user_id);
  if (f.month !== undefined) q = q.where("approval_month", "<=", f.month).where("last_month", ">=", f.month);
  return q;
}

/** A page of assets, newest approval first, then by line. */
export async function pageOfAssets(
  db: Db,
  f: AssetFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: AssetRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    filtered(db, f)
      .selectAll()
      .orderBy("approved_on", "desc")
      .orderBy("line_id")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    filtered(db, f)
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function eventsOf(db: Db, lineIds: string[]): Promise<EventRow[]> {
  if (lineIds.length === 0) return [];
  return db
    .selectFrom("accounting_events")
    .selectAll()
    .where(anyOf("line_id", lineIds))
    .orderBy("line_id")
    .orderBy("seq")
    .execute();
}

/** The asset movements of §17's roll-forward, one row per currency, as exact decimal text. */
export interface RollForwardSums {
  currency: string;
  opening: string;
  additions: string;
  adjustments: string;
  amortization: string;
  clawbacks: string;
  impairment: string;
  current: string;
}

/**
 * One aggregate over the postings: an amortization run counts `amount` × the months it shares with each
 * span (before `from`; from … to; the 12 months after `to`), every other posting once, in its month.
 */
export function rollForwardSql(from: number, to: number) {
  const before = from - 1;
  const ahead = to + 12;
  return sql<RollForwardSums>`
    SELECT currency,
      sum(CASE
        WHEN type = 'amortization' THEN -amount * GREATEST(0, LEAST(last_month, ${before}) - first_month + 1)
        WHEN first_month > ${before} THEN 0
        WHEN type IN ('addition', 'adjustment') THEN amount
        ELSE -amount END)::text AS opening,
      sum(CASE WHEN type = 'addition' AND first_month >= ${from} AND first_month <= ${to} THEN amount ELSE 0 END)::text AS additions,
      sum(CASE WHEN type = 'adjustment' AND first_month >= ${from} AND first_month <= ${to} THEN amount ELSE 0 END)::text AS adjustments,
      sum(CASE WHEN type = 'amortization'
        THEN amount * GREATEST(0, LEAST(last_month, ${to}) - GREATEST(first_month, ${from}) + 1) ELSE 0 END)::text AS amortization,
      sum(CASE WHEN type = 'clawback' AND first_month >= ${from} AND first_month <= ${to} THEN amount ELSE 0 END)::text AS clawbacks,
      sum(CASE WHEN type = 'impairment' AND first_month >= ${from} AND first_month <= ${to} THEN amount ELSE 0 END)::text AS impairment,
      sum(CASE WHEN type = 'amortization'
        THEN amount * GREATEST(0, LEAST(last_month, ${ahead}) - GREATEST(first_month, ${to + 1}) + 1) ELSE 0 END)::text AS current
    FROM accounting_postings
    WHERE type IN ('addition', 'adjustment', 'amortization', 'clawback', 'impairment') AND first_month <= ${ahead}
    GROUP BY currency
    ORDER BY currency`;
}

export async function rollForwardSums(db: Db, from: number, to: number): Promise<RollForwardSums[]> {
  return (await rollForwardSql(from, to).execute(db)).rows;
}
