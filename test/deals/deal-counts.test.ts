import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Deal, DealDetail } from "../../src/deals/index.js";
import { compactDealCounts } from "../../src/deals/index.js";
import type { BulkResult } from "../../src/deals/testing.js";
import type { Page } from "../../src/http/pagination.js";
import { unique } from "../factories.js";
import { Api, createDeal, dealBody, ok, repOnPlan } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";

/**
 * GET /deals totals filtered by status alone (or not at all) are sums of per-status deltas kept by
 * triggers (007_deal_counts.sql); any other filter counts rows. Either way the total is exact: after
 * every kind of write it equals count(*) over the same filter.
 */
let t: TestApp;
let api: Api;
let owner: string;
const STATUSES = ["pending", "approved", "rejected", "disputed", "paid"] as const;
const FILTERS = [undefined, ...STATUSES, "approved,paid", STATUSES.join(",")];

beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t, "admin");
  owner = (await repOnPlan(api)).user.id;
});
afterAll(() => t.close());

async function countRows(statuses: string | undefined, ownerId?: string): Promise<number> {
  let q = t.db.db.selectFrom("deals").select((eb) => eb.fn.countAll<string>().as("n"));
  if (statuses) q = q.where("status", "in", statuses.split(",") as (typeof STATUSES)[number][]);
  if (ownerId) q = q.where("owner_id", "=", ownerId);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

async function listTotal(query: string): Promise<number> {
  return ok<Page<Deal>>(await api.get(`/deals?per_page=1${query}`)).meta.total;
}

/** Every status filter's total equals count(*); returns the totals by status for exact checks. */
async function expectExactTotals(): Promise<Record<string, number>> {
  const byStatus: Record<string, number> = {};
  for (const filter of FILTERS) {
    const total = await listTotal(filter ? `&status=${filter}` : "");
    expect(total, `status=${filter}`).toBe(await countRows(filter));
    if (filter && !filter.includes(",")) byStatus[filter] = total;
  }
  return byStatus;
}

describe("exact totals through every kind of deal write", () => {
  it("creates, approvals, rejections, payments, resubmissions, deletes and bulk upserts", async () => {
    const deals = [];
    for (let i = 0; i < 6; i++) deals.push(await createDeal(api, owner));
    expect(await expectExactTotals()).toEqual({ pending: 6, approved: 0, rejected: 0, disputed: 0, paid: 0 });

    ok<DealDetail>(await api.post(`/deals/${deals[0]!.id}/approve`));
    ok<DealDetail>(await api.post(`/deals/${deals[1]!.id}/approve`));
    ok<DealDetail>(await api.post(`/deals/${deals[2]!.id}/reject`, { reason: "duplicate" }));
    ok<DealDetail>(await api.post(`/deals/${deals[1]!.id}/mark-paid`));
    expect(await expectExactTotals()).toEqual({ pending: 3, approved: 1, rejected: 1, disputed: 0, paid: 1 });

    ok<DealDetail>(await api.patch(`/deals/${deals[2]!.id}`, { arr_amount: 12000 })); // resubmits: rejected → pending
    ok(await api.del(`/deals/${deals[3]!.id}`), 204);
    expect(await expectExactTotals()).toEqual({ pending: 3, approved: 1, rejected: 0, disputed: 0, paid: 1 });

    const bulk = Array.from({ length: 25 }, (_, i) => ({ ...dealBody(owner), external_id: unique(`crm-${i}`) }));
    expect(ok<BulkResult>(await api.post("/deals/bulk", { deals: bulk })).meta.created).toBe(25);
    expect(await expectExactTotals()).toEqual({ pending: 28, approved: 1, rejected: 0, disputed: 0, paid: 1 });
  });

  it("concurrent creates all count (writers never wait on a counter row)", async () => {
    const before = await listTotal("&status=pending");
    const created = await Promise.all(Array.from({ length: 12 }, () => api.post("/deals", dealBody(owner))));
    for (const res of created) ok(res, 201);
    expect(await listTotal("&status=pending")).toBe(before + 12);
    await expectExactTotals();
  });

  it("a rolled-back transaction leaves the totals as they were", async () => {
    const before = await expectExactTotals();
    await expect(
      t.db.db.transaction().execute(async (tx) => {
        await sql`UPDATE deals SET status = 'rejected' WHERE status = 'pending'`.execute(tx);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await expectExactTotals()).toEqual(before);
  });

  it("a status change of many rows by plain SQL counts too", async () => {
    await sql`UPDATE deals SET status = 'disputed' WHERE status = 'approved'`.execute(t.db.db);
    const after = await expectExactTotals();
    expect(after.approved).toBe(0);
    expect(after.disputed).toBe(1);
  });
});

describe("which filters the deltas answer", () => {
  it("status alone (or nothing) reads deal_counts; any other filter counts rows", async () => {
    // A stray delta shows which path answered; the owner filter and a text search do not see it.
    await sql`INSERT INTO deal_counts (status, n) VALUES ('paid', 1000)`.execute(t.db.db);
    try {
      const paid = await countRows("paid");
      expect(await listTotal("&status=paid")).toBe(paid + 1000);
      expect(await listTotal("")).toBe((await countRows(undefined)) + 1000);
      expect(await listTotal(`&status=paid&owner_id=${owner}`)).toBe(await countRows("paid", owner));
      expect(await listTotal(`&owner_id=${owner}`)).toBe(await countRows(undefined, owner));
      expect(await listTotal("&status=paid&q=Deal")).toBe(paid);
      expect(await listTotal("&status=paid&close_date_from=2000-01-01")).toBe(paid);
    } finally {
      await sql`DELETE FROM deal_counts WHERE status = 'paid' AND n = 1000`.execute(t.db.db);
    }
    await expectExactTotals();
  });
});

describe("list items", () => {
  it("are the single-deal shape without lines: splits, no-plan explanation, timestamps, amounts", async () => {
    const planless = (await repOnPlan(api)).user.id;
    await t.db.db.deleteFrom("plan_assignments").where("user_id", "=", planless).execute();
    const deal = await createDeal(api, owner, {
      arr_amount: 12345.67,
      splits: [
        { user_id: owner, percent: 66.6667 },
        { user_id: planless, percent: 33.3333 },
      ],
    });
    ok<DealDetail>(await api.post(`/deals/${deal.id}/approve`));
    ok<DealDetail>(await api.post(`/deals/${deal.id}/mark-paid`));
    const {
      commissions: _lines,
      recalculation_job_id: _job,
      people: _people,
      ...single
    } = ok<DealDetail>(await api.get(`/deals/${deal.id}`));
    expect(single.explanation).not.toBeNull();
    expect(single.paid_at).not.toBeNull();
    const listed = ok<Page<Deal>>(await api.get(`/deals?status=paid&per_page=100`)).data.find(
      (d: { id: string }) => d.id === deal.id,
    );
    expect(listed).toEqual(single);
  });
});

describe("compaction", () => {
  it("folds the deltas into one row per status with deals, and changes no total", async () => {
    const before = await expectExactTotals();
    await compactDealCounts(t.db.db);
    const rows = await t.db.db.selectFrom("deal_counts").selectAll().orderBy("status").execute();
    const nonZero = Object.entries(before).filter(([, n]) => n > 0);
    expect(rows.map((r) => [r.status, Number(r.n)])).toEqual(nonZero.sort(([a], [b]) => a.localeCompare(b)));
    expect(await expectExactTotals()).toEqual(before);
  });

  it("TRUNCATE empties the counts with the deals", async () => {
    await sql`TRUNCATE deals CASCADE`.execute(t.db.db);
    expect(await expectExactTotals()).toEqual({ pending: 0, approved: 0, rejected: 0, disputed: 0, paid: 0 });
    expect((await t.db.db.selectFrom("deal_counts").selectAll().execute()).length).toBe(0);
  });
});
