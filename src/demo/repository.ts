import { sql } from "kysely";
import type { Db } from "../db/schema.js";
import type { DealStatus } from "../deals/index.js";

/** Deals that already have a dispute (a re-run of the seed must not open a second one). */
export async function selectDisputedDeals(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom("disputes").select("deal_id").where("deal_id", "in", ids).execute();
  return new Set(rows.map((r) => r.deal_id));
}

/** The demo deals already there, by external id: the seed creates only the others. */
export async function selectDealsByExternalId(
  db: Db,
  externalIds: string[],
): Promise<Map<string, { id: string; status: DealStatus }>> {
  if (externalIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("deals")
    .select(["id", "status", "external_id"])
    .where("external_id", "in", externalIds)
    .execute();
  return new Map(rows.map((r) => [r.external_id!, { id: r.id, status: r.status }]));
}

/** How many of the demo deals (external id `demo-…`) are in each status. */
export async function countDemoStatuses(db: Db): Promise<Record<DealStatus, number>> {
  const rows = await db
    .selectFrom("deals")
    .select(["status", sql<string>`count(*)`.as("n")])
    .where("external_id", "like", "demo-%")
    .groupBy("status")
    .execute();
  const counts: Record<DealStatus, number> = {
    pending: 0,
    approved: 0,
    rejected: 0,
    disputed: 0,
    paid: 0,
    cancelled: 0,
  };
  for (const r of rows) counts[r.status] = Number(r.n);
  return counts;
}
