import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DealDetail } from "../../src/deals/index.js";
import { createUser, unique } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";

// API.md §15 end to end: every line rounds half away from zero to its currency's minor unit, and the
// JSON, the explanation and the CSV exports show that currency's decimals.

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(() => t.close());

/** A rep on a flat-rate plan in `currency` from 2026-01-01. */
async function repOn(currency: string, rate: number, extra: Record<string, unknown> = {}) {
  const user = await createUser(t);
  const plan = await createPlan(api, { currency, tiers: null, quota: null, base_rate: rate, ...extra });
  await assign(api, plan.id, user.id);
  return { user, plan };
}

/** The CSV rows after the header (BOM and CRLF dropped), split at commas outside quotes. */
function csvRows(body: string): string[][] {
  const lines = body
    .replace(/^\uFEFF/, "")
    .split("\r\n")
    .filter(Boolean);
  return lines.slice(1).map((l) =>
    l
      .match(/("([^"]|"")*"|[^,]*)(,|$)/g)!
      .slice(0, -1)
      .map((c) => c.replace(/,$/, "")),
  );
}

describe("plan lines round to the plan currency's minor unit (API.md §15)", () => {
  it("JPY: 5 % of 12,345 = 617.25 → 617", async () => {
    const { user, plan } = await repOn("JPY", 0.05);
    const deal = await createDeal(api, user.id, { currency: "JPY", arr_amount: 12345 });
    expect(deal.commissions).toHaveLength(1);
    const line = deal.commissions[0]!;
    expect(line).toMatchObject({ kind: "plan", plan_id: plan.id, amount: 617, currency: "JPY" });
    expect(line.explanation).toMatchObject({ unrounded: "617.25", amount: 617, summary: "12,345 × 5% = 617" });
    expect(deal.total_commission).toBe(617);
  });

  it("JPY: half away from zero — 5 % of 12,350 = 617.5 → 618", async () => {
    const { user } = await repOn("JPY", 0.05);
    const deal = await createDeal(api, user.id, { currency: "JPY", arr_amount: 12350 });
    expect(deal.commissions[0]!.amount).toBe(618);
  });

  it("KWD: 10 % of 1,234.567 = 123.4567 → 123.457", async () => {
    const { user } = await repOn("KWD", 0.1);
    const deal = await createDeal(api, user.id, { currency: "KWD", arr_amount: 1234.567 });
    expect(deal.arr_amount).toBe(1234.567);
    const line = deal.commissions[0]!;
    expect(line).toMatchObject({ amount: 123.457, currency: "KWD" });
    expect(line.explanation).toMatchObject({
      unrounded: "123.4567",
      amount: 123.457,
      summary: "1,234.567 × 10% = 123.457",
    });
    expect(deal.total_commission).toBe(123.457);
    // Read back from the database: the same numbers.
    const read = ok<DealDetail>(await api.get(`/deals/${deal.id}`));
    expect([read.arr_amount, read.total_commission, read.commissions[0]!.amount]).toEqual([1234.567, 123.457, 123.457]);
  });

  it("KWD tiers and a cap at 3 decimals: 0.125 of 1,000.001 under a 100.005 cap", async () => {
    const { user } = await repOn("KWD", 0.125, { cap_per_period: 100.005 });
    const deal = await createDeal(api, user.id, { currency: "KWD", arr_amount: 1000.001 });
    expect(deal.commissions[0]!.amount).toBe(100.005); // 125.000125 capped
    const first = await createDeal(api, user.id, { currency: "KWD", arr_amount: 0.011, close_date: "2026-07-20" });
    expect(first.commissions[0]!.amount).toBe(0); // the cap is used up
  });

  it("USD amounts in JSON stay as they were: 1234.5 (not 1234.500)", async () => {
    const { user } = await repOn("USD", 0.1);
    const deal = await createDeal(api, user.id, { arr_amount: 12345 });
    expect(deal.commissions[0]!.amount).toBe(1234.5);
    const res = await api.get(`/deals/${deal.id}`);
    expect(res.body).toContain('"arr_amount":12345,');
    expect(res.body).toContain('"total_commission":1234.5,');
    const list = await api.get(`/deals?owner_id=${user.id}`);
    expect(list.body).toContain('"total_commission":1234.5,');
  });
});

describe("SPIFF, adjustment and clawback lines in their currency", () => {
  it("a JPY flat SPIFF of 1,001 split 50/50 pays 501 each (500.5 → 501)", async () => {
    const a = await repOn("JPY", 0.05);
    const b = await repOn("JPY", 0.05);
    const spiff = ok<{ id: string }>(
      await api.post("/spiffs", {
        name: unique("SPIFF"),
        currency: "JPY",
        starts_on: "2026-07-01",
        ends_on: "2026-07-31",
        payout: { type: "flat", amount: 1001 },
      }),
      201,
    );
    const deal = await createDeal(api, a.user.id, {
      currency: "JPY",
      arr_amount: 10000,
      splits: [
        { user_id: a.user.id, percent: 50 },
        { user_id: b.user.id, percent: 50 },
      ],
    });
    const spiffLines = deal.commissions.filter((l) => l.kind === "spiff" && l.spiff_id === spiff.id);
    expect(spiffLines.map((l) => l.amount)).toEqual([501, 501]);
    expect(spiffLines[0]!.explanation.summary).toMatch(/flat 1,001 × 50% split = 501$/);
    await api.del(`/spiffs/${spiff.id}`);
  });

  it("a KWD adjustment keeps 3 decimals; a JPY one none", async () => {
    const { user } = await repOn("KWD", 0.1);
    const deal = await createDeal(api, user.id, { currency: "KWD", arr_amount: 1000 });
    await approveAsOwner(t, deal.id);
    const line = ok<{ amount: number; explanation: { summary: string } }>(
      await api.post("/commissions/adjustments", { deal_id: deal.id, user_id: user.id, amount: -1.005, reason: "fee" }),
      201,
    );
    expect(line.amount).toBe(-1.005);
    expect(line.explanation.summary).toMatch(/^Adjustment -1\.005 by /);
    const jpy = await repOn("JPY", 0.1);
    const jpyDeal = await createDeal(api, jpy.user.id, { currency: "JPY", arr_amount: 1000 });
    await approveAsOwner(t, jpyDeal.id);
    const jpyLine = ok<{ explanation: { summary: string } }>(
      await api.post("/commissions/adjustments", {
        deal_id: jpyDeal.id,
        user_id: jpy.user.id,
        amount: 50,
        reason: "x",
      }),
      201,
    );
    expect(jpyLine.explanation.summary).toMatch(/^Adjustment \+50 by /);
  });

  it("a KWD refund claws back at 3 decimals: 1/3 of a 123.457 line → −41.152", async () => {
    const clawback = { window_days: 90, percent: 100, proration: "none" };
    const { user } = await repOn("KWD", 0.1, { clawback });
    const deal = await createDeal(api, user.id, { currency: "KWD", arr_amount: 1234.567, close_date: "2026-07-15" });
    await approveAsOwner(t, deal.id);
    ok(await api.post(`/deals/${deal.id}/refunds`, { amount: 411.522, effective_date: "2026-08-01" }), 201);
    const after = ok<DealDetail>(await api.get(`/deals/${deal.id}`));
    const line = after.commissions.find((l) => l.kind === "clawback")!;
    // 123.457 × 411.522 / 1234.567 = 41.15232… → −41.152
    expect(line.amount).toBe(-41.152);
    expect(after.total_commission).toBe(82.305);
  });
});

describe("CSV exports at the line currency's decimals", () => {
  it("the commission CSV writes 617 for JPY, 123.457 for KWD and 1234.50 for USD", async () => {
    const user = await createUser(t);
    for (const [currency, rate, arr] of [
      ["JPY", 0.05, 12345],
      ["KWD", 0.1, 1234.567],
      ["USD", 0.1, 12345],
    ] as const) {
      const plan = await createPlan(api, { currency, tiers: null, quota: null, base_rate: rate });
      // One user on three plans at once is not allowed: a user per currency, the CSV filtered by deal.
      const rep = await createUser(t);
      await assign(api, plan.id, rep.id);
      const deal = await createDeal(api, rep.id, { currency, arr_amount: arr });
      const res = await api.get(`/commissions.csv?deal_id=${deal.id}`);
      expect(res.statusCode, res.body).toBe(200);
      const [row] = csvRows(res.body);
      expect(row![5]).toBe({ JPY: "617", KWD: "123.457", USD: "1234.50" }[currency]);
    }
    expect(user.id).toMatch(/^usr_/);
  });

  it("the statement CSV with deal columns writes arr_amount at the deal currency's decimals", async () => {
    const { user } = await repOn("JPY", 0.05);
    await createDeal(api, user.id, { currency: "JPY", arr_amount: 12345 });
    const res = await api.get(`/users/${user.id}/statement.csv?period=2026-Q3&deal_columns=true`);
    expect(res.statusCode, res.body).toBe(200);
    const [row] = csvRows(res.body);
    expect(row![5]).toBe("617");
    expect(row!.slice(-3)).toEqual(["12345", "JPY", "100"]);
  });
});
