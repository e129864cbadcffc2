import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Statement } from "../../src/commissions/index.js";
import { createUser, errorOf } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, ok, repOnPlan } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { signedInAs } from "../sessions.js";

/** What the rep home reads from a statement: plan terms, the band reached, the next band, totals by status. */

let t: TestApp;
let admin: Api;
beforeAll(async () => {
  t = await createTestApp();
  admin = new Api(t);
});
afterAll(() => t.close());

const THREE_TIERS = [
  { from_attainment: 0, rate: 0.08 },
  { from_attainment: 1, rate: 0.12 },
  { from_attainment: 1.5, rate: 0.15 },
];

async function statementOf(userId: string, period = "2026-Q3") {
  return ok<Statement>(await admin.get(`/users/${userId}/statement?period=${period}`));
}

describe("statement plans: terms and tier position", () => {
  it("below the first boundary: the plan's terms, the 8 % band, 12 % from 100 % still 10,000.01 away", async () => {
    const { user, plan } = await repOnPlan(admin, { name: "AE quarterly", currency: "EUR", tiers: THREE_TIERS });
    await createDeal(admin, user.id, { arr_amount: 89999.99, close_date: "2026-07-10", currency: "EUR" });
    const statement = await statementOf(user.id);
    expect(statement.plans).toEqual([
      {
        plan_id: plan.id,
        plan_name: "AE quarterly",
        plan_version: 1,
        currency: "EUR",
        period_kind: "quarter",
        quota: 100000,
        attainment: 89999.99,
        attainment_ratio: 0.9,
        tiers: THREE_TIERS,
        current_rate: 0.08,
        cap_per_period: null,
        earned: 7200,
        cap_reached: false,
        next_tier: { from_attainment: 1, rate: 0.12, arr_to_reach: 10000.01 },
      },
    ]);
  });

  it("exactly at 100 %: the 12 % band applies and 150 % is the next one, 50,000.00 away", async () => {
    const { user } = await repOnPlan(admin, { tiers: THREE_TIERS });
    await createDeal(admin, user.id, { arr_amount: 60000, close_date: "2026-07-01" });
    await createDeal(admin, user.id, { arr_amount: 40000, close_date: "2026-08-01" });
    const [plan] = (await statementOf(user.id)).plans;
    expect([plan!.attainment, plan!.attainment_ratio, plan!.current_rate, plan!.next_tier]).toEqual([
      100000,
      1,
      0.12,
      { from_attainment: 1.5, rate: 0.15, arr_to_reach: 50000 },
    ]);
  });

  it("in the top band there is no next tier", async () => {
    const { user } = await repOnPlan(admin, { tiers: THREE_TIERS });
    await createDeal(admin, user.id, { arr_amount: 150000, close_date: "2026-07-01" });
    const [plan] = (await statementOf(user.id)).plans;
    expect([plan!.current_rate, plan!.next_tier]).toEqual([0.15, null]);
  });

  it("a boundary between cents rounds the ARR to reach up: 1,000.01 × 50 % − 0.01 = 499.995 → 500.00", async () => {
    const tiers = [
      { from_attainment: 0, rate: 0.1 },
      { from_attainment: 0.5, rate: 0.2 },
    ];
    const { user } = await repOnPlan(admin, { quota: 1000.01, tiers });
    await createDeal(admin, user.id, { arr_amount: 0.01, close_date: "2026-07-01" });
    const [plan] = (await statementOf(user.id)).plans;
    expect(plan!.next_tier).toEqual({ from_attainment: 0.5, rate: 0.2, arr_to_reach: 500 });
  });

  it("a plan without quota or tiers: its base rate, no ratio and no next tier", async () => {
    const { user } = await repOnPlan(admin, { tiers: null, quota: null, base_rate: 0.1, period: "month" });
    await createDeal(admin, user.id, { arr_amount: 12345.67, close_date: "2026-07-01" });
    const [plan] = (await statementOf(user.id, "2026-07")).plans;
    expect(plan).toMatchObject({
      period_kind: "month",
      quota: null,
      attainment: 12345.67,
      attainment_ratio: null,
      tiers: [],
      current_rate: 0.1,
      next_tier: null,
    });
  });

  it("the terms are those of the version the lines were calculated with", async () => {
    const { user, plan } = await repOnPlan(admin, { tiers: THREE_TIERS });
    const deal = await createDeal(admin, user.id, { arr_amount: 50000, close_date: "2026-07-01" });
    await approveAsOwner(t, deal.id);
    const before = (await statementOf(user.id)).plans[0]!;
    const raised = [{ from_attainment: 0, rate: 0.09 }, ...THREE_TIERS.slice(1)];
    ok(await admin.patch(`/comp-plans/${plan.id}`, { tiers: raised }));
    const after = (await statementOf(user.id)).plans[0]!;
    expect(ok<{ version: number }>(await admin.get(`/comp-plans/${plan.id}`)).version).toBe(2);
    expect([before.plan_version, before.tiers, after.plan_version, after.tiers]).toEqual([
      1,
      THREE_TIERS,
      1,
      THREE_TIERS,
    ]);
  });
});

describe("statement by_status", () => {
  it("sums pending, approved and paid lines to the cent", async () => {
    const { user } = await repOnPlan(admin, { tiers: null, quota: null, base_rate: 0.0333 });
    const pending = await createDeal(admin, user.id, { arr_amount: 1000.03, close_date: "2026-07-01" });
    const approved = await createDeal(admin, user.id, { arr_amount: 2000.07, close_date: "2026-07-02" });
    const paid = await createDeal(admin, user.id, { arr_amount: 3000.11, close_date: "2026-07-03" });
    await approveAsOwner(t, approved.id);
    await approveAsOwner(t, paid.id, "paid");
    const statement = await statementOf(user.id);
    expect(statement.lines.map((l) => [l.deal_id, l.status, l.amount])).toEqual([
      [pending.id, "pending", 33.3],
      [approved.id, "approved", 66.6],
      [paid.id, "paid", 99.9],
    ]);
    expect(statement.by_status).toEqual({ pending: 33.3, approved: 66.6, paid: 99.9 });
    expect(statement.totals.total).toBe(199.8);
  });

  it("an empty period: zeros", async () => {
    const user = await createUser(t);
    expect((await statementOf(user.id, "2026")).by_status).toEqual({ pending: 0, approved: 0, paid: 0 });
  });
});

describe("statement access for a signed-in rep", () => {
  it("their own statement with the new fields; another rep's is 404", async () => {
    const { user, plan } = await repOnPlan(admin, { tiers: THREE_TIERS });
    const other = await createUser(t);
    await assign(admin, plan.id, other.id);
    await createDeal(admin, user.id, { arr_amount: 1000, close_date: "2026-07-01" });
    const rep = await signedInAs(t, user);
    const get = (id: string) =>
      t.app.inject({ method: "GET", url: `/api/v1/users/${id}/statement?period=2026-Q3`, headers: rep.headers() });
    const own = ok<Statement>(await get(user.id));
    expect([own.plans[0]!.next_tier, own.by_status]).toEqual([
      { from_attainment: 1, rate: 0.12, arr_to_reach: 99000 },
      { pending: 80, approved: 0, paid: 0 },
    ]);
    const res = await get(other.id);
    expect([res.statusCode, errorOf(res).code]).toEqual([404, "not_found"]);
  });
});
