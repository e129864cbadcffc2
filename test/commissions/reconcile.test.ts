import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PeriodSummary, Statement, TeamStatement } from "../../src/commissions/index.js";
import type { User } from "../../src/users/index.js";
import { createUser, errorOf } from "../factories.js";
import { Api, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { signedInAs } from "../sessions.js";

/**
 * Issue #28 "every person can reconcile their pay": a statement line names its deal and the person's
 * credit, a plan's cap shows when it is reached, a person's periods are listed (their plan's, not the
 * calendar's), and the team summary reads each person's own plan period on a date. Today is 2026-11-22.
 */

type Page<T> = { data: T[]; meta: { page: number; per_page: number; total: number } };

let t: TestApp;
let api: Api;
let quarterly: User;
let partner: User;
let yearly: User;
let monthly: User;
let planless: User;
let splitDealId: string;
beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  api = new Api(t, "admin");
  // Quarterly, 10 % flat, capped at 1,000.00 a quarter.
  const capped = await createPlan(api, {
    period: "quarter",
    tiers: null,
    quota: 50000,
    base_rate: 0.1,
    cap_per_period: 1000,
  });
  quarterly = await createUser(t, { name: "Quinn Quarterly" });
  partner = await createUser(t, { name: "Pat Partner" });
  await assign(api, capped.id, quarterly.id);
  await assign(api, capped.id, partner.id);
  // Q3: a 60/40 split of 12,345.67 (Quinn 740.74, Pat 493.83), then 5,000.00 alone: 500.00 capped to 259.26.
  const split = await createDeal(api, quarterly.id, {
    opportunity_name: '=Acme, "platform"',
    arr_amount: 12345.67,
    close_date: "2026-08-14",
    deal_type: "expansion",
    splits: [
      { user_id: quarterly.id, percent: 60 },
      { user_id: partner.id, percent: 40 },
    ],
  });
  splitDealId = split.id;
  await createDeal(api, quarterly.id, { opportunity_name: "Globex", arr_amount: 5000, close_date: "2026-09-01" });
  // Q4: 1,000.00 → 100.00, far under the cap.
  await createDeal(api, quarterly.id, { opportunity_name: "Initech", arr_amount: 1000, close_date: "2026-10-05" });

  const year = await createPlan(api, { period: "year", tiers: null, quota: 100000, base_rate: 0.05 });
  yearly = await createUser(t, { name: "Yara Yearly" });
  await assign(api, year.id, yearly.id);
  await createDeal(api, yearly.id, { opportunity_name: "Umbrella", arr_amount: 40000, close_date: "2026-03-31" });

  const month = await createPlan(api, { period: "month", tiers: null, quota: 10000, base_rate: 0.1 });
  monthly = await createUser(t, { name: "Mo Monthly" });
  await assign(api, month.id, monthly.id);
  await createDeal(api, monthly.id, { opportunity_name: "Hooli", arr_amount: 3333.33, close_date: "2026-11-02" });

  planless = await createUser(t, { name: "Nora No-plan" });
});
afterAll(() => t.close());

const statement = async (userId: string, period: string) =>
  ok<Statement>(await api.get(`/users/${userId}/statement?period=${period}`));

describe("a statement line names its deal and the person's credit", () => {
  it("carries the deal's name, close date, ARR, type, status and this person's split percent", async () => {
    const mine = await statement(quarterly.id, "2026-Q3");
    const theirs = await statement(partner.id, "2026-Q3");
    const acme = {
      id: splitDealId,
      opportunity_name: '=Acme, "platform"',
      close_date: "2026-08-14",
      arr_amount: 12345.67,
      currency: "USD",
      deal_type: "expansion",
      status: "pending",
    };
    expect(mine.lines.map((l) => [l.amount, l.deal])).toEqual([
      [740.74, { ...acme, credit_percent: 60 }],
      [
        259.26,
        {
          id: mine.lines[1]!.deal_id,
          opportunity_name: "Globex",
          close_date: "2026-09-01",
          arr_amount: 5000,
          currency: "USD",
          deal_type: "new_business",
          status: "pending",
          credit_percent: 100,
        },
      ],
    ]);
    expect(theirs.lines.map((l) => [l.amount, l.deal])).toEqual([[493.83, { ...acme, credit_percent: 40 }]]);
  });

  it("an adjustment to a deal's owner who is not credited on it has no credit percent", async () => {
    const owner = await createUser(t, { name: "Olive Owner" });
    const deal = await createDeal(api, owner.id, {
      opportunity_name: "Stark",
      arr_amount: 100,
      close_date: "2026-12-01",
      splits: [{ user_id: partner.id, percent: 100 }],
    });
    ok(
      await api.post("/commissions/adjustments", {
        deal_id: deal.id,
        user_id: owner.id,
        amount: 12.5,
        period: "2026-Q4",
        reason: "sourced the deal",
      }),
      201,
    );
    const lines = (await statement(owner.id, "2026-Q4")).lines;
    expect(lines.map((l) => [l.kind, l.amount, l.deal?.opportunity_name, l.deal?.credit_percent])).toEqual([
      ["adjustment", 12.5, "Stark", null],
    ]);
  });

  it("the statement CSV keeps the contract's columns, and adds the deal's with deal_columns=true", async () => {
    const plain = await api.get(`/users/${partner.id}/statement.csv?period=2026-Q3`);
    expect(plain.statusCode).toBe(200);
    expect(plain.body.split("\r\n")[0]).toBe(
      "\uFEFFid,deal_id,user_id,kind,period,amount,status,plan_id,spiff_id,calculated_at,explanation_summary,currency",
    );
    const res = await api.get(`/users/${partner.id}/statement.csv?period=2026-Q3&deal_columns=true`);
    expect(res.statusCode).toBe(200);
    const [header, row, end] = res.body.split("\r\n");
    expect(header).toBe(
      "\uFEFFid,deal_id,user_id,kind,period,amount,status,plan_id,spiff_id,calculated_at,explanation_summary,currency," +
        "opportunity_name,close_date,arr_amount,deal_currency,credit_percent",
    );
    // The name starts with "=": prefixed with ' (OWASP), then quoted for its comma and quotes.
    expect(row!.endsWith(`,"'=Acme, ""platform""",2026-08-14,12345.67,USD,40`)).toBe(true);
    expect(row!.split(",")[5]).toBe("493.83");
    expect(end).toBe("");
    // The JSON operation answers the same CSV for Accept: text/csv.
    const negotiated = await api.get(`/users/${partner.id}/statement?period=2026-Q3&deal_columns=true`, {
      accept: "text/csv",
    });
    expect(negotiated.body).toBe(res.body);
    const bad = await api.get(`/users/${partner.id}/statement.csv?period=2026-Q3&deal_columns=yes`);
    expect(bad.statusCode).toBe(422);
    expect(errorOf(bad).details?.[0]?.param).toBe("deal_columns");
  });
});

describe("a statement plan shows its cap", () => {
  it("reached: Σ of the plan's lines equals the cap, and further deals earn 0", async () => {
    const q3 = await statement(quarterly.id, "2026-Q3");
    expect(q3.plans.map((p) => [p.cap_per_period, p.earned, p.cap_reached])).toEqual([[1000, 1000, true]]);
    const after = await createDeal(api, quarterly.id, { arr_amount: 7000, close_date: "2026-09-02" });
    expect(after.commissions.map((l) => l.amount)).toEqual([0]);
    const again = await statement(quarterly.id, "2026-Q3");
    expect(again.plans.map((p) => [p.cap_per_period, p.earned, p.cap_reached])).toEqual([[1000, 1000, true]]);
    ok(await api.del(`/deals/${after.id}`), 204);
  });

  it("not reached under the cap, and no cap without one", async () => {
    expect(
      (await statement(quarterly.id, "2026-Q4")).plans.map((p) => [p.cap_per_period, p.earned, p.cap_reached]),
    ).toEqual([[1000, 100, false]]);
    expect((await statement(yearly.id, "2026")).plans.map((p) => [p.cap_per_period, p.earned, p.cap_reached])).toEqual([
      [null, 2000, false],
    ]);
  });
});

describe("GET /users/{id}/periods", () => {
  const periods = async (userId: string, query = "") =>
    ok<Page<PeriodSummary>>(await api.get(`/users/${userId}/periods${query}`));

  it("lists the periods with lines, newest first, with sums by status equal to each statement's", async () => {
    const page = await periods(quarterly.id);
    expect(page.meta).toEqual({ page: 1, per_page: 25, total: 2 });
    expect(page.data).toEqual([
      {
        period: "2026-Q4",
        period_kind: "quarter",
        from: "2026-10-01",
        to: "2026-12-31",
        current: true,
        lines: 1,
        currency: "USD",
        by_status: { pending: 100, approved: 0, paid: 0 },
        total: 100,
        totals_by_currency: [{ currency: "USD", amount: 100 }],
      },
      {
        period: "2026-Q3",
        period_kind: "quarter",
        from: "2026-07-01",
        to: "2026-09-30",
        current: false,
        lines: 2,
        currency: "USD",
        by_status: { pending: 1000, approved: 0, paid: 0 },
        total: 1000,
        totals_by_currency: [{ currency: "USD", amount: 1000 }],
      },
    ]);
    for (const p of page.data) {
      const s = await statement(quarterly.id, p.period);
      expect([p.currency, p.by_status, p.total, p.lines]).toEqual([
        s.currency,
        s.by_status,
        s.totals.total,
        s.lines.length,
      ]);
    }
  });

  it("a yearly plan's current period is the year; a monthly plan's is the month, listed even without lines", async () => {
    expect((await periods(yearly.id)).data.map((p) => [p.period, p.current, p.lines, p.total])).toEqual([
      ["2026", true, 1, 2000],
    ]);
    expect((await periods(monthly.id)).data.map((p) => [p.period, p.current, p.lines, p.total])).toEqual([
      ["2026-11", true, 1, 333.33],
    ]);
    expect((await periods(planless.id)).data).toEqual([]);
  });

  it("approved and paid lines are summed apart; void lines are left out", async () => {
    const rep = await createUser(t, { name: "Ann Approved" });
    const plan = await createPlan(api, { period: "quarter", tiers: null, quota: 1000, base_rate: 0.1 });
    await assign(api, plan.id, rep.id);
    const a = await createDeal(api, rep.id, { arr_amount: 1000, close_date: "2026-04-10" });
    const b = await createDeal(api, rep.id, { arr_amount: 2000.05, close_date: "2026-05-10" });
    const c = await createDeal(api, rep.id, { arr_amount: 3000, close_date: "2026-06-10" });
    ok(await api.post(`/deals/${a.id}/approve`), 200);
    ok(await api.post(`/deals/${b.id}/approve`), 200);
    ok(await api.post(`/deals/${b.id}/mark-paid`), 200);
    ok(await api.post(`/deals/${c.id}/reject`, { reason: "duplicate" }), 200);
    expect((await periods(rep.id)).data.map((p) => [p.period, p.current, p.lines, p.by_status, p.total])).toEqual([
      ["2026-Q4", true, 0, { pending: 0, approved: 0, paid: 0 }, 0],
      ["2026-Q2", false, 2, { pending: 0, approved: 100, paid: 200.01 }, 300.01],
    ]);
  });

  it("pages, and answers 404 to a rep for someone else, as the statement does", async () => {
    const page = await periods(quarterly.id, "?per_page=1&page=2");
    expect([page.meta, page.data.map((p) => p.period)]).toEqual([{ page: 2, per_page: 1, total: 2 }, ["2026-Q3"]]);
    const session = await signedInAs(t, partner);
    const get = (id: string) =>
      t.app.inject({ method: "GET", url: `/api/v1/users/${id}/periods`, headers: session.headers("GET") });
    expect((await get(partner.id)).statusCode).toBe(200);
    const other = await get(quarterly.id);
    expect([other.statusCode, errorOf(other).code]).toEqual([404, "not_found"]);
  });
});

describe("GET /users/statements?on=", () => {
  const rows = async (query: string) =>
    ok<Page<TeamStatement>>(await api.get(`/users/statements?per_page=100&${query}`));
  const row = (page: Page<TeamStatement>, user: User) => page.data.find((r) => r.user.id === user.id)!;

  it("gives each person their own plan's period on that date, with the statement's numbers", async () => {
    const page = await rows("on=2026-11-22");
    expect(row(page, yearly).period).toBe("2026");
    expect(row(page, monthly).period).toBe("2026-11");
    expect(row(page, quarterly).period).toBe("2026-Q4");
    expect(row(page, planless).period).toBe("2026-Q4");
    for (const user of [yearly, monthly, quarterly]) {
      const r = row(page, user);
      const s = await statement(user.id, r.period);
      expect([r.plans, r.totals, r.by_status]).toEqual([s.plans, s.totals, s.by_status]);
    }
    expect([row(page, yearly).totals.total, row(page, monthly).totals.total]).toEqual([2000, 333.33]);
    const q3 = await rows("on=2026-08-31");
    expect([row(q3, quarterly).period, row(q3, quarterly).deals, row(q3, quarterly).totals.total]).toEqual([
      "2026-Q3",
      2,
      1000,
    ]);
    expect([row(q3, partner).deals, row(q3, partner).totals.total]).toEqual([1, 493.83]);
  });

  it("takes one of period and on; neither is on today (2026-11-22)", async () => {
    const both = await api.get("/users/statements?period=2026-Q3&on=2026-08-01");
    expect([both.statusCode, errorOf(both).code, errorOf(both).details?.[0]?.param]).toEqual([
      422,
      "validation_error",
      "period",
    ]);
    const bad = await api.get("/users/statements?on=2026-02-30");
    expect([bad.statusCode, errorOf(bad).details?.[0]?.param]).toEqual([422, "on"]);
    const today = await rows("");
    expect(today).toEqual(await rows("on=2026-11-22"));
    expect([row(today, yearly).period, row(today, monthly).period]).toEqual(["2026", "2026-11"]);
  });
});
