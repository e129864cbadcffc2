import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Preview } from "../../src/commissions/index.js";
import type { AssignmentWritten } from "../../src/comp-plans/testing.js";
import { explanationOf } from "../explanations.js";
import { createUser } from "../factories.js";
import { Api, assign, createDeal, createPlan, getDeal, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";

// #13.18 through the HTTP API: two assignments of one yearly plan share 2026, the second with a
// quota_override; each deal is priced with the quota of the assignment in force on its close_date, and
// its prior attainment counts the earlier deals under the other one.

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(() => t.close());

const TIERS = [
  { from_attainment: 0, rate: 0.1 },
  { from_attainment: 1, rate: 0.15 },
  { from_attainment: 1.5, rate: 0.2 },
];
const FIRST = { effective_from: "2026-01-01", effective_to: "2026-05-19" };
const SECOND = { effective_from: "2026-05-26" };

async function yearlyRep() {
  const user = await createUser(t);
  const plan = await createPlan(api, { period: "year", quota: 15000, tiers: TIERS });
  return { user, plan };
}

/** [amount, quota, prior_attainment] of a deal's plan line. */
async function planLine(dealId: string) {
  const deal = await getDeal(api, dealId);
  expect(deal.commissions).toHaveLength(1);
  const line = deal.commissions[0];
  const explanation = explanationOf(line, "plan");
  return [line!.amount, explanation.quota, explanation.prior_attainment];
}

describe("#13.18 the quota comes from the assignment in force on the deal's close_date", () => {
  it("the issue's case: a March deal keeps the plan's 15,000 when a later assignment overrides 7,500", async () => {
    const { user, plan } = await yearlyRep();
    await assign(api, plan.id, user.id, FIRST);
    const march = await createDeal(api, user.id, { arr_amount: 10000, close_date: "2026-03-20" });
    expect(await planLine(march.id)).toEqual([1000, "15000", "0"]);

    const second = await assign(api, plan.id, user.id, { ...SECOND, quota_override: 7500 });
    expect(await planLine(march.id)).toEqual([1000, "15000", "0"]);

    // June: quota 7,500 (bands 0 / 7,500 / 11,250), 10,000 booked before it: 1,250 × 15% + 3,750 × 20%.
    const june = await createDeal(api, user.id, { arr_amount: 5000, close_date: "2026-06-10" });
    expect(await planLine(june.id)).toEqual([937.5, "7500", "10000"]);
    expect(await planLine(march.id)).toEqual([1000, "15000", "0"]);

    // Clearing the override moves only the June deal, back to the plan's 15,000: 5,000 × 10%.
    ok<AssignmentWritten>(await api.patch(`/plan-assignments/${second.id}`, { quota_override: null }));
    expect(await planLine(june.id)).toEqual([500, "15000", "10000"]);
    expect(await planLine(march.id)).toEqual([1000, "15000", "0"]);
  });

  it("the other order (deals first, the later deal created before the earlier one)", async () => {
    const { user, plan } = await yearlyRep();
    await assign(api, plan.id, user.id, { ...SECOND, quota_override: 7500 });
    await assign(api, plan.id, user.id, FIRST);
    const june = await createDeal(api, user.id, { arr_amount: 5000, close_date: "2026-06-10" });
    expect(await planLine(june.id)).toEqual([500, "7500", "0"]);
    const march = await createDeal(api, user.id, { arr_amount: 10000, close_date: "2026-03-20" });
    expect(await planLine(march.id)).toEqual([1000, "15000", "0"]);
    expect(await planLine(june.id)).toEqual([937.5, "7500", "10000"]);
  });

  it("the override on the first assignment: the March deal uses it, the June deal the plan's quota", async () => {
    const { user, plan } = await yearlyRep();
    await assign(api, plan.id, user.id, { ...FIRST, quota_override: 7500 });
    await assign(api, plan.id, user.id, SECOND);
    const march = await createDeal(api, user.id, { arr_amount: 10000, close_date: "2026-03-20" });
    const june = await createDeal(api, user.id, { arr_amount: 5000, close_date: "2026-06-10" });
    // 7,500 × 10% + 2,500 × 15%; then 5,000 × 10% under 15,000 with 10,000 booked.
    expect(await planLine(march.id)).toEqual([1125, "7500", "0"]);
    expect(await planLine(june.id)).toEqual([500, "15000", "10000"]);
    const preview = ok<Preview>(
      await api.post("/commissions/preview", {
        arr_amount: 1000,
        close_date: "2026-04-01",
        owner_id: user.id,
        opportunity_name: "What if",
      }),
    );
    // 10,000 booked under a 7,500 quota: the 1.5 band starts at 11,250, so 1,000 × 15%.
    expect(preview.lines.map((l) => [l.amount, l.explanation.quota])).toEqual([[150, "7500"]]);
  });
});
