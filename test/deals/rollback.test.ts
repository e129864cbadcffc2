import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DealDetail } from "../../src/deals/index.js";
import type { BulkResult } from "../../src/deals/testing.js";
import { errorOf } from "../factories.js";
import { Api, createDeal, dealBody, getDeal, ok, repOnPlan } from "../factories-commissions.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";

/**
 * A write that fails after it began writing leaves nothing behind: no deal, line, audit row, event,
 * job or idempotency record. The failures come from triggers this file creates in its own database,
 * so they strike where only the database can notice, after the service has written its rows.
 */

let t: TestApp;
let admin: Api;
let writeKey: string;
beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  admin = new Api(t, "admin");
  writeKey = (await t.key("write")).key;
  await sql`
    CREATE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'refused by test trigger on % %', TG_TABLE_NAME, TG_OP; END $$`.execute(t.db.db);
});
afterEach(async () => {
  await sql`DROP TRIGGER IF EXISTS test_refuse_deal ON deals`.execute(t.db.db);
  await sql`DROP TRIGGER IF EXISTS test_refuse_event ON events`.execute(t.db.db);
});
afterAll(() => t.close());

const TABLES = [
  "deals",
  "deal_splits",
  "commission_lines",
  "audit_events",
  "events",
  "jobs",
  "idempotency_keys",
] as const;

/** Row counts of every table a deal write touches. */
async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of TABLES) {
    const { rows } = await sql<{ n: string | number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(t.db.db);
    out[table] = Number(rows[0]!.n);
  }
  return out;
}

const lines = (dealId: string) =>
  t.db.db
    .selectFrom("commission_lines")
    .select(["id", "status", "locked", "amount", "calculated_at"])
    .where("deal_id", "=", dealId)
    .orderBy("id")
    .execute();

const bulk = (deals: unknown[], idem: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/v1/deals/bulk",
    headers: { ...bearer(writeKey), "idempotency-key": idem },
    payload: { deals },
  });

describe("a failed write rolls back completely", () => {
  it("POST /deals/bulk: item 900 of 1,000 refused at COMMIT → 500, not one row of the batch remains", async () => {
    const { user } = await repOnPlan(admin, { tiers: null, quota: null, base_rate: 0.1 });
    const existing = ok<DealDetail>(await admin.put("/deals/by-external-id/crm-keep", dealBody(user.id)), 201);
    const before = await getDeal(admin, existing.id);
    const linesBefore = await lines(existing.id);
    const items = Array.from({ length: 1000 }, (_, i) => ({
      ...dealBody(user.id, { opportunity_name: `Bulk ${i}`, arr_amount: 1000 + i }),
      external_id: i === 0 ? "crm-keep" : `crm-bulk-${i}`,
    }));
    // A deferred constraint trigger runs at COMMIT: after every deal, line, audit row and event was written.
    await sql`
      CREATE CONSTRAINT TRIGGER test_refuse_deal AFTER INSERT ON deals DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW WHEN (NEW.external_id = 'crm-bulk-900') EXECUTE FUNCTION test_refuse()`.execute(t.db.db);
    const rowsBefore = await counts();

    const res = await bulk(items, "bulk-rollback");
    expect(res.statusCode, res.body).toBe(500);
    expect(errorOf(res).code).toBe("internal_error");
    expect(res.body).not.toContain("refused by test trigger");

    expect(await counts()).toEqual(rowsBefore);
    const leftovers = await t.db.db
      .selectFrom("deals")
      .select("id")
      .where("external_id", "like", "crm-bulk-%")
      .execute();
    expect(leftovers).toEqual([]);
    expect(await getDeal(admin, existing.id)).toEqual(before);
    expect(await lines(existing.id)).toEqual(linesBefore);
    const keys = await t.db.db
      .selectFrom("idempotency_keys")
      .select("idem_key")
      .where("idem_key", "=", "bulk-rollback")
      .execute();
    expect(keys).toEqual([]);

    // Nothing half-exists: the same request (same Idempotency-Key, a 5xx was not stored) now succeeds whole.
    await sql`DROP TRIGGER test_refuse_deal ON deals`.execute(t.db.db);
    const retry = ok<BulkResult>(await bulk(items, "bulk-rollback"));
    expect(retry.meta).toEqual({ created: 999, updated: 1, unchanged: 0, recalculation_job_id: null });
    expect(retry.data[900]).toMatchObject({ external_id: "crm-bulk-900", arr_amount: 1900, total_commission: 190 });
    expect((await counts()).deals).toBe(rowsBefore.deals! + 999);
  });

  it("POST /deals/{id}/reject: its last statement fails → the deal, its lines and the recalculated deal are as before", async () => {
    const { user } = await repOnPlan(admin);
    const early = await createDeal(admin, user.id, { close_date: "2026-07-01", arr_amount: 80000 });
    const late = await createDeal(admin, user.id, { close_date: "2026-07-15", arr_amount: 40000 });
    const earlyBefore = await getDeal(admin, early.id);
    const lateBefore = await getDeal(admin, late.id);
    expect(lateBefore.total_commission).toBe(5000);
    const linesBefore = [await lines(early.id), await lines(late.id)];
    // Immediate, on the deal.rejected event: the status, the voided lines and the later deal's
    // recalculated line are written by then.
    await sql`
      CREATE TRIGGER test_refuse_event BEFORE INSERT ON events
      FOR EACH ROW WHEN (NEW.type = 'deal.rejected') EXECUTE FUNCTION test_refuse()`.execute(t.db.db);
    const rowsBefore = await counts();

    const res = await admin.post(`/deals/${early.id}/reject`, { reason: "duplicate" });
    expect([res.statusCode, errorOf(res).code]).toEqual([500, "internal_error"]);

    expect(await counts()).toEqual(rowsBefore);
    expect(await getDeal(admin, early.id)).toEqual(earlyBefore);
    expect(await getDeal(admin, late.id)).toEqual(lateBefore);
    expect([await lines(early.id), await lines(late.id)]).toEqual(linesBefore);

    // Without the trigger the same reject succeeds, and it does move the later deal: the failed
    // attempt had written that change, and it was rolled back.
    await sql`DROP TRIGGER test_refuse_event ON events`.execute(t.db.db);
    ok<DealDetail>(await admin.post(`/deals/${early.id}/reject`, { reason: "duplicate" }));
    expect((await getDeal(admin, late.id)).total_commission).toBe(4000);
  });
});
