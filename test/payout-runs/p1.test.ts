import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DealDetail } from "../../src/deals/index.js";
import type { User } from "../../src/users/index.js";
import { createUser, errorOf } from "../factories.js";
import {
  Api,
  approveAsOwner,
  assign,
  createDeal,
  createPlan,
  eventsOf,
  getDeal,
  ok,
} from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { signedInAs } from "../sessions.js";

import { cancelRun, createRun, finalizeRun, getRun, payeeOf, today } from "./support.js";

const GENERIC_HEADER =
  "run_id,period_start,period_end,pay_date,external_id,payroll_id,email,name,currency,plan,spiff,override,adjustment,clawback,draw_advance,draw_recovery,deficit_brought_forward,deficit_carried_forward,net_pay";

/**
 * API.md §13's worked example P1, to the cent: Ruth's run 1 nets −550.00 to a deficit, run 2 recovers it
 * (all of it by default, half with max_recovery_percent 50).
 */

let t: TestApp;
let api: Api;
let ruth: User;
let plan: { id: string };

beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  api = new Api(t);
  today(t, "2026-01-05");
  ruth = await createUser(t, { name: "Ruth Diaz", email: "ruth@example.com", external_id: "U17" });
  ok(await api.patch(`/users/${ruth.id}`, { payroll_id: "004211" }));
  plan = await createPlan(api, {
    name: "Ruth 2026",
    period: "month",
    tiers: null,
    quota: null,
    base_rate: 0.1,
    clawback: { window_days: 365, percent: 100, proration: "none" },
  });
  await assign(api, plan.id, ruth.id);
  ok(
    await api.post("/spiffs", {
      name: "March push",
      starts_on: "2026-03-01",
      ends_on: "2026-03-31",
      payout: { type: "flat", amount: 300 },
    }),
    201,
  );
});
afterAll(() => t.close());

const zero = { override: 0, draw_advance: 0, draw_recovery: 0 };
let dealZero: DealDetail;
let dealOne: DealDetail;
let runOne: string;

/** Ruth's January deal: ARR 20,000.00, a plan line of 2,000.00, approved and marked paid on 01-12. */
async function januaryDealPaid() {
  today(t, "2026-01-12");
  dealZero = await createDeal(api, ruth.id, { arr_amount: 20000, close_date: "2026-01-10" });
  await approveAsOwner(t, dealZero.id);
  ok(await api.post(`/deals/${dealZero.id}/mark-paid`));
}

/** The clawback of −2,000.00 on 03-20: the January deal cancelled inside the plan's 365 days, in full (§14). */
async function januaryDealCancelled() {
  today(t, "2026-03-20");
  ok(await api.post(`/deals/${dealZero.id}/cancel`, { reason: "Customer churned", effective_date: "2026-03-20" }));
  const lines = (await getDeal(api, dealZero.id)).commissions.map((l) => [l.kind, l.amount, l.status]);
  expect(lines).toEqual([
    ["plan", 2000, "paid"],
    ["clawback", -2000, "approved"],
  ]);
}

describe("P1 run 1 (through 2026-03-31): L −550.00 → net_pay 0.00, carried 550.00", () => {
  it("selects plan, spiff, adjustment and clawback lines and nets them", async () => {
    await januaryDealPaid();
    today(t, "2026-03-02");
    dealOne = await createDeal(api, ruth.id, { arr_amount: 12000, close_date: "2026-03-02" });
    today(t, "2026-03-05");
    await approveAsOwner(t, dealOne.id);
    today(t, "2026-03-12");
    const adjustment = { deal_id: dealOne.id, user_id: ruth.id, amount: -50, reason: "Seat count corrected" };
    ok(await api.post("/commissions/adjustments", adjustment), 201);
    await januaryDealCancelled();
    today(t, "2026-04-01");

    const run = await createRun(api, { through: "2026-03-31", pay_date: "2026-04-15", user_ids: [ruth.id] });
    runOne = run.id;
    expect(run).toMatchObject({
      status: "draft",
      through: "2026-03-31",
      pay_date: "2026-04-15",
      currency: null,
      user_ids: [ruth.id],
      max_recovery_percent: 100,
      period_start: "2026-03-01",
      period_end: "2026-03-31",
      totals: [
        {
          currency: "USD",
          payees: 1,
          lines: 4,
          lines_total: -550,
          recovered: 0,
          net_pay: 0,
          deficit_carried_forward: 550,
        },
      ],
      finalized_at: null,
      cancelled_at: null,
    });
    expect(run.created_by).toMatch(/^key_/);
    expect(run.payees).toEqual([
      {
        user_id: ruth.id,
        name: "Ruth Diaz",
        email: "ruth@example.com",
        external_id: "U17",
        payroll_id: "004211",
        currency: "USD",
        gross: { plan: 1200, spiff: 300, adjustment: -50, clawback: -2000, ...zero },
        line_count: 4,
        lines_total: -550,
        positive_total: 1500,
        deficit_brought_forward: 0,
        recovery_cap: 1500,
        recovered: 0,
        net_pay: 0,
        deficit_carried_forward: 550,
      },
    ]);
    const p = payeeOf(run, ruth.id);
    expect(p.lines_total - p.deficit_brought_forward + p.deficit_carried_forward).toBe(p.net_pay);
  });

  it("finalize: the lines are paid, the deal becomes paid (deal.paid), payout_run.finalized without payees", async () => {
    const run = await finalizeRun(api, runOne);
    expect([run.status, run.finalized_at, run.finalized_by?.slice(0, 4)]).toEqual([
      "finalized",
      "2026-04-01T12:00:00.000Z",
      "key_",
    ]);
    expect(payeeOf(run, ruth.id)).toMatchObject({ net_pay: 0, deficit_carried_forward: 550 });
    // The deal's own GET shows its clawback line, a kind §14 adds to the line schema: its event shows the deal.
    expect(run.lines.data.map((l) => [l.kind, l.status, l.payout_run_id])).toEqual([
      ["plan", "paid", runOne],
      ["spiff", "paid", runOne],
      ["adjustment", "paid", runOne],
      ["clawback", "paid", runOne],
    ]);
    const paid = (await eventsOf(t, "deal.paid")).map((e) => e.object);
    // January's mark-paid, then this finalize; the cancelled January deal stays cancelled.
    expect(paid.map((d) => [d.id, d.status, d.paid_at])).toEqual([
      [dealZero.id, "paid", "2026-01-12T12:00:00.000Z"],
      [dealOne.id, "paid", "2026-04-01T12:00:00.000Z"],
    ]);
    expect((await getDeal(api, dealZero.id)).status).toBe("cancelled");
    const [finalized] = await eventsOf(t, "payout_run.finalized");
    expect(finalized!.object).toMatchObject({ id: runOne, status: "finalized" });
    expect(finalized!.object).not.toHaveProperty("payees");
    expect((await eventsOf(t, "payout_run.created")).map((e) => e.object.id)).toEqual([runOne]);
  });

  it("the generic export's row, byte for byte (the run's id in place of prun_1)", async () => {
    const res = await api.get(`/payout-runs/${runOne}/export`, { accept: "application/json" });
    expect([res.statusCode, res.headers["content-type"]]).toEqual([200, "text/csv; charset=utf-8"]);
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="payout-run-${runOne}.csv"`);
    expect(res.body).toBe(
      `\uFEFF${GENERIC_HEADER}\r\n` +
        `${runOne},2026-03-01,2026-03-31,2026-04-15,U17,004211,ruth@example.com,Ruth Diaz,USD,1200.00,300.00,0.00,-50.00,-2000.00,0.00,0.00,0.00,550.00,0.00\r\n`,
    );
  });
});

describe("P1 run 2 (through 2026-04-30): one plan line of 900.00", () => {
  let dealTwo: DealDetail;
  it("default max_recovery_percent: cap 900.00, recovered 550.00, net_pay 350.00, carried 0.00", async () => {
    dealTwo = await createDeal(api, ruth.id, { arr_amount: 9000, close_date: "2026-04-06" });
    today(t, "2026-04-10");
    await approveAsOwner(t, dealTwo.id);
    today(t, "2026-05-01");
    const run = await createRun(api, { through: "2026-04-30", pay_date: "2026-05-15", user_ids: [ruth.id] });
    expect([run.period_start, run.period_end]).toEqual(["2026-04-01", "2026-04-30"]);
    expect(payeeOf(run, ruth.id)).toMatchObject({
      gross: { plan: 900, spiff: 0, adjustment: 0, clawback: 0, ...zero },
      line_count: 1,
      lines_total: 900,
      positive_total: 900,
      deficit_brought_forward: 550,
      recovery_cap: 900,
      recovered: 550,
      net_pay: 350,
      deficit_carried_forward: 0,
    });
    // Its lines are listed with it, and held by it.
    expect(run.lines.data.map((l) => [l.deal_id, l.kind, l.amount, l.payout_run_id])).toEqual([
      [dealTwo.id, "plan", 900, run.id],
    ]);
    const cancelled = await cancelRun(api, run.id);
    expect([cancelled.status, cancelled.lines.meta.total]).toEqual(["cancelled", 0]);
    expect((await eventsOf(t, "payout_run.cancelled")).map((e) => e.object.id)).toEqual([run.id]);
  });

  it("max_recovery_percent 50: cap 450.00, recovered 450.00, net_pay 450.00, carried 100.00; the invariant", async () => {
    const draft = await createRun(api, {
      through: "2026-04-30",
      pay_date: "2026-05-15",
      user_ids: [ruth.id],
      max_recovery_percent: 50,
    });
    const run = await finalizeRun(api, draft.id);
    const payee = payeeOf(run, ruth.id);
    expect(payee).toMatchObject({
      lines_total: 900,
      deficit_brought_forward: 550,
      recovery_cap: 450,
      recovered: 450,
      net_pay: 450,
      deficit_carried_forward: 100,
    });
    expect([run.max_recovery_percent, run.period_start]).toEqual([50, "2026-04-01"]);
    // Σ net_pay (0.00 + 450.00) = Σ lines (−550.00 + 900.00) + the latest carried (100.00).
    const first = payeeOf(await getRun(api, runOne), ruth.id);
    expect(first.net_pay + payee.net_pay).toBe(first.lines_total + payee.lines_total + payee.deficit_carried_forward);
    expect((await getDeal(api, dealTwo.id)).status).toBe("paid");

    const generic = await api.get(`/payout-runs/${run.id}/export?format=generic`);
    const [, row] = generic.body.split("\r\n");
    expect(row).toBe(
      `${run.id},2026-04-01,2026-04-30,2026-05-15,U17,004211,ruth@example.com,Ruth Diaz,USD,900.00,0.00,0.00,0.00,0.00,0.00,0.00,550.00,100.00,450.00`,
    );
    const adp = await api.get(`/payout-runs/${run.id}/export?format=adp&co_code=K7Q&batch_id=APR26`);
    expect([adp.statusCode, adp.headers["content-disposition"]]).toEqual([200, 'attachment; filename="PRK7QEPI.csv"']);
    expect(adp.body).toBe("Co Code,Batch ID,File #,Earnings 3 Code,Earnings 3 Amount\r\nK7Q,APR26,004211,C,450.00\r\n");
  });

  it("GET /users/{id}/payout-balances: the deficit left, 100.00; Ruth reads her own, another rep gets 404", async () => {
    const balances = [{ currency: "USD", deficit: 100, draws: [] }];
    expect(ok(await api.get(`/users/${ruth.id}/payout-balances`))).toEqual(balances);
    const own = await signedInAs(t, ruth as User);
    const url = `/api/v1/users/${ruth.id}/payout-balances`;
    const mine = await t.app.inject({ method: "GET", url, headers: own.headers("GET") });
    expect([mine.statusCode, mine.json()]).toEqual([200, balances]);
    const other = await signedInAs(t, { role: "rep" });
    const refused = await t.app.inject({ method: "GET", url, headers: other.headers("GET") });
    expect([refused.statusCode, errorOf(refused).code]).toEqual([404, "not_found"]);
  });
});
