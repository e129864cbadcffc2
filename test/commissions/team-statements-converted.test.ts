import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Statement, TeamStatement } from "../../src/commissions/index.js";
import type { User } from "../../src/users/index.js";
import { createUser } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";

/**
 * The team page's numbers are summed by PostgreSQL, a person's statement's in Node from its lines: a rep
 * whose credits were converted at a rate that does not terminate (API.md §15: 25/23), in two statuses and
 * two currencies, must get the same numbers from both, exact.
 */

let t: TestApp;
let api: Api;
let rep: User;
beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock(Date.parse("2026-08-01T12:00:00.000Z")) });
  api = new Api(t, "admin");
  ok(await api.put("/exchange-rates/2026-07-01", { base: "USD", rates: { EUR: "0.92" } }), 201);
  rep = await createUser(t);
  const plan = await createPlan(api, {
    currency: "USD",
    quota: 10000,
    tiers: [
      { from_attainment: 0, rate: 0.1 },
      { from_attainment: 0.25, rate: 0.2 },
    ],
  });
  await assign(api, plan.id, rep.id);
  const first = await createDeal(api, rep.id, { arr_amount: 1007, currency: "EUR", close_date: "2026-07-02" });
  await createDeal(api, rep.id, { arr_amount: 1007, currency: "EUR", close_date: "2026-07-03" });
  await createDeal(api, rep.id, { arr_amount: 1000, currency: "USD", close_date: "2026-07-04" });
  await approveAsOwner(t, first.id);
  ok(
    await api.post("/commissions/adjustments", {
      deal_id: first.id,
      user_id: rep.id,
      amount: -3.5,
      currency: "EUR",
      period: "2026-Q3",
      reason: "correction in euros",
    }),
    201,
  );
});
afterAll(() => t.close());

describe("GET /users/statements with converted credits", () => {
  it("gives the numbers of the person's statement, exact, per currency and status", async () => {
    const statement = ok<Statement>(await api.get(`/users/${rep.id}/statement?period=2026-Q3`));
    const page = ok<{ data: TeamStatement[] }>(await api.get("/users/statements?period=2026-Q3&per_page=100"));
    const row = page.data.find((r) => r.user.id === rep.id)!;
    const numbers = (s: Statement | TeamStatement) => ({
      currency: s.currency,
      plans: s.plans,
      totals: s.totals,
      totals_by_currency: s.totals_by_currency,
      by_status: s.by_status,
    });
    expect(numbers(row)).toEqual(numbers(statement));
    // 2 × 25175/23 + 1000 = 73350/23 = 3189.1304…: shown to the cent, its ratio to 4 places.
    expect(row.plans.map((p) => [p.attainment, p.attainment_ratio])).toEqual([[3189.13, 0.3189]]);
    expect(row.deals).toBe(3);
    expect(row.totals_by_currency.map((c) => [c.currency, c.adjustment, c.total])).toEqual([
      ["EUR", -3.5, -3.5],
      ["USD", 0, statement.totals.total],
    ]);
    const approved = statement.lines.filter((l) => l.status === "approved" && l.currency === "USD");
    expect(row.by_status.approved).toBe(approved.reduce((s, l) => Math.round((s + l.amount) * 100) / 100, 0));
  });
});
