import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompPlanWritten } from "../../src/comp-plans/testing.js";
import type { SpiffWritten } from "../../src/spiffs/testing.js";
import { explanationOf } from "../explanations.js";
import { createUser } from "../factories.js";
import {
  Api,
  approveAsOwner,
  assign,
  createDeal,
  createPlan,
  getDeal,
  lineAmounts,
  ok,
  repOnPlan,
} from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";

/** API.md §5 through the HTTP API, to the cent. Each case builds its own reps and plans. */

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(() => t.close());

const base = (rate: number, extra: Record<string, unknown> = {}) => ({
  tiers: null,
  quota: null,
  base_rate: rate,
  ...extra,
});

describe("worked examples (API.md §5)", () => {
  it("the §5 example: prior 90,000, a 30,000 deal across quota earns 4,000.00", async () => {
    const { user, plan } = await repOnPlan(api);
    await createDeal(api, user.id, { arr_amount: 90000, close_date: "2026-07-01" });
    const deal = await createDeal(api, user.id, { arr_amount: 30000, close_date: "2026-07-15" });
    expect(deal.total_commission).toBe(4000);
    expect(deal.commissions).toHaveLength(1);
    const line = deal.commissions[0]!;
    expect(line).toMatchObject({ kind: "plan", plan_id: plan.id, plan_version: 1, period: "2026-Q3", amount: 4000 });
    expect(line.explanation).toEqual({
      summary: "10,000.00 × 10% + 20,000.00 × 15% = 4,000.00",
      plan_id: plan.id,
      plan_version: 1,
      period: "2026-Q3",
      quota: "100000",
      credit: "30000",
      prior_attainment: "90000",
      bands: [
        { from: "0", to: "100000", rate: "0.1", amount: "10000", commission: "1000" },
        { from: "100000", to: null, rate: "0.15", amount: "20000", commission: "3000" },
      ],
      multiplier: "1",
      cap: null,
      unrounded: "4000",
      amount: 4000,
    });
    expect(Object.keys(line.explanation)[0]).toBe("summary");
  });

  it("a deal spanning three bands earns each band's rate on its slice", async () => {
    const tiers = [
      { from_attainment: 0, rate: 0.1 },
      { from_attainment: 1, rate: 0.15 },
      { from_attainment: 1.5, rate: 0.2 },
    ];
    const { user } = await repOnPlan(api, { tiers });
    await createDeal(api, user.id, { arr_amount: 50000, close_date: "2026-07-01" });
    const deal = await createDeal(api, user.id, { arr_amount: 150000 });
    expect(deal.total_commission).toBe(22500);
    expect(deal.commissions[0]!.explanation.summary).toBe(
      "50,000.00 × 10% + 50,000.00 × 15% + 50,000.00 × 20% = 22,500.00",
    );
  });

  it("a cap cuts the crossing line and zeroes the later ones (written, with the cap explained)", async () => {
    const { user } = await repOnPlan(api, base(0.1, { cap_per_period: 5000 }));
    const a = await createDeal(api, user.id, { arr_amount: 30000, close_date: "2026-07-01" });
    const b = await createDeal(api, user.id, { arr_amount: 30000, close_date: "2026-07-02" });
    const c = await createDeal(api, user.id, { arr_amount: 10000, close_date: "2026-07-03" });
    expect([a.total_commission, b.total_commission, c.total_commission]).toEqual([3000, 2000, 0]);
    expect(explanationOf(b.commissions[0], "plan").cap).toEqual({ limit: "5000", before: "3000", applied: true });
    expect(b.commissions[0]!.explanation.summary).toBe(
      "30,000.00 × 10% = 3,000.00 capped at 2,000.00 (cap 5,000.00, 3,000.00 used before) = 2,000.00",
    );
    expect(c.commissions).toHaveLength(1);
    expect(explanationOf(c.commissions[0], "plan").cap).toEqual({ limit: "5000", before: "5000", applied: true });
  });

  it("a deal-type multiplier scales the line", async () => {
    const { user } = await repOnPlan(api, base(0.1, { deal_type_multipliers: { expansion: 1.5, renewal: 0.5 } }));
    const deal = await createDeal(api, user.id, { arr_amount: 10000, deal_type: "expansion" });
    expect(deal.total_commission).toBe(1500);
    expect(deal.commissions[0]!.explanation).toMatchObject({
      summary: "10,000.00 × 10% × 1.5 (expansion) = 1,500.00",
      multiplier: "1.5",
      unrounded: "1500",
    });
  });

  it("a deal below min_deal_amount earns a 0.00 line, yet its credit counts toward the next deal", async () => {
    const { user } = await repOnPlan(api, { min_deal_amount: 5000 });
    const small = await createDeal(api, user.id, { arr_amount: 4000, close_date: "2026-07-01" });
    expect(lineAmounts(small)).toEqual([["plan", user.id, 0]]);
    expect(small.commissions[0]!.explanation).toMatchObject({ min_deal_amount: "5000", unrounded: "400", amount: 0 });
    const next = await createDeal(api, user.id, { arr_amount: 100000, close_date: "2026-07-02" });
    expect(explanationOf(next.commissions[0], "plan").prior_attainment).toBe("4000");
    expect(next.total_commission).toBe(10200);
  });

  it("a 60/40 split divides the credit: each user earns on their share in their own bucket", async () => {
    const plan = await createPlan(api, base(0.1));
    const [a, b] = [await createUser(t), await createUser(t)];
    for (const u of [a, b]) await assign(api, plan.id, u.id);
    const deal = await createDeal(api, a.id, {
      arr_amount: 50000,
      splits: [
        { user_id: a.id, percent: 60 },
        { user_id: b.id, percent: 40 },
      ],
    });
    expect(lineAmounts(deal)).toEqual([
      ["plan", a.id, 3000],
      ["plan", b.id, 2000],
    ]);
    expect(deal.commissions.map((c) => c.explanation.credit)).toEqual(["30000", "20000"]);
    expect(deal.total_commission).toBe(5000);
  });

  it("a 33.33/33.33/33.34 split: each line rounds on its own and the lines sum to the cent", async () => {
    const plan = await createPlan(api, base(0.1));
    const users = [await createUser(t), await createUser(t), await createUser(t)];
    for (const u of users) await assign(api, plan.id, u.id);
    const deal = await createDeal(api, users[0]!.id, {
      arr_amount: 10000,
      splits: users.map((u, i) => ({ user_id: u.id, percent: i === 2 ? 33.34 : 33.33 })),
    });
    expect(deal.commissions.map((c) => c.amount)).toEqual([333.3, 333.3, 333.4]);
    expect(deal.total_commission).toBe(1000);
  });

  it("three 33.3333 % thirds of a 100.00 commission are 33.33 each: 99.99 in total, by the rule", async () => {
    const plan = await createPlan(api, base(0.1));
    const users = [await createUser(t), await createUser(t), await createUser(t)];
    for (const u of users) await assign(api, plan.id, u.id);
    const deal = await createDeal(api, users[0]!.id, {
      arr_amount: 1000,
      splits: users.map((u, i) => ({ user_id: u.id, percent: i === 2 ? 33.3334 : 33.3333 })),
    });
    expect(deal.commissions.map((c) => c.explanation.credit)).toEqual(["333.333", "333.333", "333.334"]);
    expect(deal.commissions.map((c) => c.amount)).toEqual([33.33, 33.33, 33.33]);
    expect(deal.total_commission).toBe(99.99);
  });

  it("a SPIFF pays a line per credited user, flat amounts divided by split", async () => {
    const plan = await createPlan(api, base(0.1));
    const [a, b] = [await createUser(t), await createUser(t)];
    for (const u of [a, b]) await assign(api, plan.id, u.id);
    const spiff = ok<SpiffWritten>(
      await api.post("/spiffs", {
        name: "Q3 expansion push",
        starts_on: "2026-07-01",
        ends_on: "2026-07-31",
        criteria: { deal_types: ["expansion"], user_ids: [a.id, b.id] },
        payout: { type: "flat", amount: 500 },
      }),
      201,
    );
    const deal = await createDeal(api, a.id, {
      arr_amount: 20000,
      deal_type: "expansion",
      close_date: "2026-07-31",
      splits: [
        { user_id: a.id, percent: 60 },
        { user_id: b.id, percent: 40 },
      ],
    });
    expect(lineAmounts(deal)).toEqual([
      ["plan", a.id, 1200],
      ["plan", b.id, 800],
      ["spiff", a.id, 300],
      ["spiff", b.id, 200],
    ]);
    const line = deal.commissions[2]!;
    expect(line).toMatchObject({ spiff_id: spiff.id, plan_id: null, period: "2026-Q3" });
    expect(line.explanation.summary).toBe('SPIFF "Q3 expansion push": flat 500.00 × 60% split = 300.00');
    expect(explanationOf(line, "spiff").criteria_met).toContain("deal_type expansion is listed");
    expect(deal.total_commission).toBe(2500);
  });

  it("a deal whose owner has no plan in force earns no line; the deal says why", async () => {
    const user = await createUser(t);
    const deal = await createDeal(api, user.id, { arr_amount: 10000 });
    expect(deal.commissions).toEqual([]);
    expect(deal.total_commission).toBe(0);
    expect(deal.explanation).toEqual({
      summary: `no plan in force for ${user.id}: no plan assignment in force on 2026-07-15`,
      no_plan: [{ user_id: user.id, reason: "no plan assignment in force on 2026-07-15" }],
    });
    const { user: rep } = await repOnPlan(api);
    const euro = await createDeal(api, rep.id, { arr_amount: 10000, currency: "EUR" });
    expect(euro.commissions).toEqual([]);
    // §15: a plan in another currency converts; with no rate there is none, and the deal names the pair.
    expect(euro.explanation?.summary).toBe(
      `no plan in force for ${rep.id}: no EUR→USD rate within 7 days before 2026-07-15`,
    );
    expect(euro.fx_missing).toEqual([{ from: "EUR", to: "USD", close_date: "2026-07-15" }]);
  });

  it("an earlier-dated deal created later moves the later deal's amount", async () => {
    const { user } = await repOnPlan(api);
    const late = await createDeal(api, user.id, { arr_amount: 100000, close_date: "2026-07-20" });
    expect(late.total_commission).toBe(10000);
    const early = await createDeal(api, user.id, { arr_amount: 50000, close_date: "2026-07-10" });
    expect(early.total_commission).toBe(5000);
    const moved = await getDeal(api, late.id);
    expect(moved.total_commission).toBe(12500);
    expect(explanationOf(moved.commissions[0], "plan").prior_attainment).toBe("50000");
  });

  it("a plan edit recalculates the pending deal and leaves the approved one as it was", async () => {
    const { user, plan } = await repOnPlan(api, base(0.1));
    const approved = await createDeal(api, user.id, { arr_amount: 10000, close_date: "2026-07-01" });
    await approveAsOwner(t, approved.id);
    const pending = await createDeal(api, user.id, { arr_amount: 10000, close_date: "2026-07-02" });
    const edited = ok<CompPlanWritten>(await api.patch(`/comp-plans/${plan.id}`, { base_rate: 0.2 }));
    expect(edited.version).toBe(2);
    const [a, p] = [await getDeal(api, approved.id), await getDeal(api, pending.id)];
    expect(a.commissions[0]).toMatchObject({ amount: 1000, plan_version: 1, status: "approved", locked: true });
    expect(a.total_commission).toBe(1000);
    expect(p.commissions[0]).toMatchObject({ amount: 2000, plan_version: 2, status: "pending", locked: false });
    expect(explanationOf(p.commissions[0], "plan").prior_attainment).toBe("10000");
  });
});
