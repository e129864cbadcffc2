import type { Selectable } from "kysely";
import type { Tx } from "../context.js";
import type { Db, SpiffsTable } from "../db/schema.js";
import { toIso } from "../http/date-fields.js";
import type { ListSpiffsQuery, Spiff } from "./schema.js";

type Row = Selectable<SpiffsTable>;

/** A SPIFF with its decimals as exact strings (what the engine reads). */
export interface SpiffRecord {
  id: string;
  name: string;
  description: string | null;
  currency: string;
  starts_on: string;
  ends_on: string;
  criteria: { min_arr_amount: string | null; deal_types: string[] | null; user_ids: string[] | null };
  payout: { type: "flat"; amount: string } | { type: "rate"; rate: string };
  active: boolean;
  /** API.md §15: how old a rate a converted deal may take. */
  fx_max_age_days: number;
  created_at: Date;
  updated_at: Date;
}

export function toSpiff(r: SpiffRecord): Spiff {
  const min = r.criteria.min_arr_amount;
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    currency: r.currency,
    starts_on: r.starts_on,
    ends_on: r.ends_on,
    criteria: {
      min_arr_amount: min === null || min === undefined ? null : Number(min),
      deal_types: (r.criteria.deal_types ?? null) as Spiff["criteria"]["deal_types"],
      user_ids: r.criteria.user_ids ?? null,
    },
    payout:
      r.payout.type === "flat"
        ? { type: "flat", amount: Number(r.payout.amount) }
        : { type: "rate", rate: Number(r.payout.rate) },
    active: r.active,
    fx_max_age_days: r.fx_max_age_days,
    created_at: toIso(r.created_at)!,
    updated_at: toIso(r.updated_at)!,
  };
}

function toRecord(row: Row): SpiffRecord {
  return { ...row, created_at: new Date(row.created_at), updated_at: new Date(row.updated_at) };
}

function columns(r: SpiffRecord) {
  return { ...r, criteria: JSON.stringify(r.criteria), payout: JSON.stringify(r.payout) };
}

export async function insertSpiff(tx: Tx, r: SpiffRecord): Promise<SpiffRecord> {
  return toRecord(await tx.insertInto("spiffs").values(columns(r)).returningAll().executeTakeFirstOrThrow());
}

export async function updateSpiff(tx: Tx, r: SpiffRecord): Promise<SpiffRecord> {
  const { id, created_at: _created, ...rest } = columns(r);
  return toRecord(
    await tx.updateTable("spiffs").set(rest).where("id", "=", id).returningAll().executeTakeFirstOrThrow(),
  );
}

export async function deleteSpiff(tx: Tx, id: string): Promise<void> {
  await tx.deleteFrom("spiffs").where("id", "=", id).execute();
}

export async function findSpiff(db: Db, id: string): Promise<SpiffRecord | undefined> {
  const row = await db.selectFrom("spiffs").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toRecord(row);
}

export async function lockSpiff(tx: Tx, id: string): Promise<SpiffRecord | undefined> {
  const row = await tx.selectFrom("spiffs").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
  return row && toRecord(row);
}

export async function listSpiffs(db: Db, q: ListSpiffsQuery, limit: number, offset: number) {
  let query = db.selectFrom("spiffs");
  if (q.active !== undefined) query = query.where("active", "=", q.active);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => toSpiff(toRecord(r))), total: Number(count.n) };
}
