import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api, eventsOf, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { approvedDeal, cancel, clawbacksOf, getDealOf, peopleOnPlan, policyOf, refund } from "./support.js";

/** API.md §14's worked examples C1–C4, through the API, to the cent. */

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(() => t.close());

describe("C1: 50,000.00 split 60/40 at 10 %, window 90, proration none", () => {
  async function c1Deal() {
    const { plan, users } = await peopleOnPlan(api, policyOf(), 2);
    const [a, b] = users;
    const deal = await approvedDeal(api, a!.id, {
      arr_amount: 50000,
      close_date: "2026-01-15",
      splits: [
        { user_id: a!.id, percent: 60 },
        { user_id: b!.id, percent: 40 },
      ],
    });
    expect(deal.commissions.map((c) => c.amount)).toEqual([3000, 2000]);
    return { plan, a: a!, b: b!, deal };
  }

  it("cancel effective 2026-04-15 (90 days) → −3,000.00 and −2,000.00; the deal is cancelled at 0.00", async () => {
    const { plan, a, b, deal } = await c1Deal();
    const cancelled = await cancel(api, deal.id, "2026-04-15");
    expect(clawbacksOf(cancelled)).toEqual([
      [a.id, -3000],
      [b.id, -2000],
    ]);
    expect(cancelled).toMatchObject({
      status: "cancelled",
      total_commission: 0,
      cancel_reason: "Customer churned",
      cancel_effective_date: "2026-04-15",
    });
    expect(cancelled.clawback_summary.map((s) => [s.user_id, s.plan_id, s.amount])).toEqual([
      [a.id, plan.id, -3000],
      [b.id, plan.id, -2000],
    ]);
    const line = cancelled.commissions.find((c) => c.kind === "clawback" && c.user_id === a.id)!;
    expect(line).toMatchObject({
      plan_id: plan.id,
      plan_version: 1,
      status: "approved",
      locked: true,
      period: "2026-Q2",
    });
    expect(line.explanation).toEqual({
      summary: expect.stringMatching(
        /^Cancellation effective 2026-04-15: 3,000\.00 earned under plan .* → -3,000\.00\. Reason: Customer churned$/,
      ),
      basis: "3000",
      percent: "100",
      factor: { kind: "full", numerator: "1", denominator: "1", value: "1" },
      window: { close_date: "2026-01-15", effective_date: "2026-04-15", days: 90, window_days: 90 },
      effective_date: "2026-04-15",
      trigger: { type: "cancel", refund_id: null },
      reason: "Customer churned",
      target: "3000",
      already_clawed_back: "0",
      line_ids: [deal.commissions[0]!.id],
      amount: -3000,
    });
    expect(Object.keys(line.explanation)).toEqual([
      ...["summary", "reason", "basis", "percent", "factor", "window", "effective_date", "trigger", "target"],
      ...["already_clawed_back", "line_ids", "amount"],
    ]);
    const events = (await eventsOf(t, "commission.calculated")).filter((e) => e.object.id === line.id);
    expect(events.map((e) => e.previous_amount)).toEqual([null]);
    expect((await eventsOf(t, "deal.cancelled")).filter((e) => e.object.id === deal.id)).toHaveLength(1);
  });

  it("effective 2026-04-16 (91 days) → no lines, and the summary says why", async () => {
    const { plan, a, b, deal } = await c1Deal();
    const cancelled = await cancel(api, deal.id, "2026-04-16");
    expect(clawbacksOf(cancelled)).toEqual([]);
    expect(cancelled.total_commission).toBe(5000);
    const note = "outside the 90-day window: effective 91 days after close";
    expect(cancelled.clawback_summary).toEqual([
      { user_id: a.id, plan_id: plan.id, currency: "USD", amount: 0, note },
      { user_id: b.id, plan_id: plan.id, currency: "USD", amount: 0, note },
    ]);
  });
});

it("C2: 180-day window, unserved_days, contract 2026-01-01 → 2027-01-01, E 1,200.00 → −805.48", async () => {
  const policy = policyOf({ window_days: 180, proration: "unserved_days" });
  const { users } = await peopleOnPlan(api, policy, 1, {}, "2025-01-01");
  const deal = await approvedDeal(api, users[0]!.id, {
    arr_amount: 12000,
    close_date: "2025-12-20",
    contract_start: "2026-01-01",
    contract_end: "2027-01-01",
  });
  const cancelled = await cancel(api, deal.id, "2026-05-01");
  expect(clawbacksOf(cancelled)).toEqual([[users[0]!.id, -805.48]]);
  const line = cancelled.commissions.find((c) => c.kind === "clawback")!;
  expect(line.explanation).toMatchObject({
    factor: { kind: "unserved_days", numerator: "245", denominator: "365" },
    window: { days: 132, window_days: 180 },
    target: "805.48",
  });
  expect(cancelled.total_commission).toBe(394.52);
});

it("C3: E 100.00, deal 3,000.00, three refunds of 1,000.00 → −33.33, −33.34, −33.33 (Σ −100.00)", async () => {
  // 10 % of 3,000.00 capped at 100.00 per period: E = 100.00.
  const { users } = await peopleOnPlan(api, policyOf(), 1, { cap_per_period: 100 });
  const deal = await approvedDeal(api, users[0]!.id, { arr_amount: 3000, close_date: "2026-01-15" });
  expect(deal.commissions.map((c) => c.amount)).toEqual([100]);
  const refunds = [];
  for (let i = 0; i < 3; i++) refunds.push(await refund(api, deal.id, 1000, "2026-02-01"));
  const after = await getDealOf(api, deal.id);
  expect(clawbacksOf(after).map(([, amount]) => amount)).toEqual([-33.33, -33.34, -33.33]);
  expect(refunds.map((r) => r.clawback_line_ids.length)).toEqual([1, 1, 1]);
  expect(after).toMatchObject({ status: "approved", refunded_amount: 3000, total_commission: 0 });
  // Reaching arr_amount is not a cancellation; a fourth refund has nothing left.
  const more = await api.post(`/deals/${deal.id}/refunds`, { amount: 0.01, effective_date: "2026-02-01" });
  expect(more.statusCode).toBe(422);
  expect(more.json().error.details).toEqual([
    {
      param: "amount",
      message: "exceeds what is left to refund: 0.00 USD of the deal's arr_amount 3,000.00 (3,000.00 refunded so far)",
    },
  ]);
  const listed = ok<{ data: { id: string }[] }>(await api.get(`/deals/${deal.id}/refunds`));
  expect(listed.data.map((r) => r.id)).toEqual(refunds.map((r) => r.id).reverse());
});

it("C4: 50 %, E 1,000.00 (plan 900.00 + SPIFF 100.00), deal 12,000.00: refund 3,000.00 → −125.00; cancel → −375.00", async () => {
  ok(
    await api.post("/spiffs", {
      name: "C4 SPIFF",
      starts_on: "2026-03-01",
      ends_on: "2026-03-31",
      payout: { type: "flat", amount: 100 },
    }),
    201,
  );
  const { plan, users } = await peopleOnPlan(api, policyOf({ percent: 50 }), 1, { base_rate: 0.075 });
  const deal = await approvedDeal(api, users[0]!.id, { arr_amount: 12000, close_date: "2026-03-10" });
  expect(deal.commissions.map((c) => [c.kind, c.amount])).toEqual([
    ["plan", 900],
    ["spiff", 100],
  ]);
  const first = await refund(api, deal.id, 3000, "2026-03-20");
  expect(clawbacksOf(await getDealOf(api, deal.id))).toEqual([[users[0]!.id, -125]]);
  const cancelled = await cancel(api, deal.id, "2026-04-01");
  expect(clawbacksOf(cancelled)).toEqual([
    [users[0]!.id, -125],
    [users[0]!.id, -375],
  ]);
  const last = cancelled.commissions.at(-1)!;
  expect(last.explanation).toMatchObject({ basis: "1000", percent: "50", target: "500", already_clawed_back: "125" });
  expect(cancelled.clawback_summary).toEqual([
    {
      user_id: users[0]!.id,
      plan_id: plan.id,
      currency: "USD",
      amount: -375,
      note: expect.stringContaining("less 125.00 already"),
    },
  ]);
  expect(first.clawback_line_ids).toEqual([cancelled.commissions.at(-2)!.id]);
  const refunded = (await eventsOf(t, "deal.refunded")).filter((e) => e.object.id === deal.id);
  expect(refunded.map((e) => [e.object.refunded_amount, (e as { refund?: { id: string } }).refund?.id])).toEqual([
    [3000, first.id],
  ]);
});
