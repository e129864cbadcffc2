import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PayoutGroup } from "../../src/commissions/testing.js";
import type { Role } from "../../src/context.js";
import type { Page } from "../../src/http/pagination.js";
import { createUser, errorOf } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";
import { signedInAs } from "../sessions.js";

/** GET /payouts: approved, unpaid lines by user, period and currency, with exact totals. Clock: 2026-11-22. */

let t: TestApp;
let admin: Api;
let ann: string;
let bob: string;
beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  admin = new Api(t, "admin");
  // Names chosen so the order by name is Ann, Bob whatever their ids.
  ann = (await createUser(t, { name: "Ann Payee" })).id;
  bob = (await createUser(t, { name: "Bob Payee" })).id;
  // 10 % on a quarterly plan (no tiers, no quota): a deal's line is arr × 0.1, rounded to the cent.
  const plan = await createPlan(admin, { tiers: null, quota: null, base_rate: 0.1 });
  await assign(admin, plan.id, ann);
  await assign(admin, plan.id, bob);
}, 60_000);
afterAll(() => t.close());

async function deal(owner: string, arr: number, status: "pending" | "approved" | "disputed" | "paid", extra = {}) {
  const created = await createDeal(admin, owner, { arr_amount: arr, ...extra });
  if (status !== "pending") await approveAsOwner(t, created.id, status);
  return created;
}

const payouts = async (query = "", api = admin) => ok<Page<PayoutGroup>>(await api.get(`/payouts${query}`));

describe("GET /payouts", () => {
  let annFirst: string;
  it("groups approved lines (approved and disputed deals, adjustments) by user, period and currency; exact totals", async () => {
    annFirst = (await deal(ann, 10000, "approved")).id; // 1000.00 in 2026-Q3
    await deal(ann, 12345.67, "approved"); // 1234.567 → 1234.57
    await deal(ann, 5000, "pending"); // not approved: not owed yet
    await deal(ann, 7000, "paid"); // paid already
    const disputed = await deal(bob, 3333.33, "disputed"); // 333.333 → 333.33, still owed while disputed
    await deal(bob, 800, "approved", { close_date: "2026-10-02" }); // 80.00 in 2026-Q4
    // Adjustments are approved lines too; 0.1 + 0.2 must be 0.3 here, not 0.30000000000000004.
    ok(
      await admin.post("/commissions/adjustments", {
        deal_id: annFirst,
        user_id: ann,
        amount: 0.1,
        reason: "r",
        period: "2026-Q3",
      }),
      201,
    );
    ok(
      await admin.post("/commissions/adjustments", {
        deal_id: disputed.id,
        user_id: bob,
        amount: 0.2,
        reason: "r",
        period: "2026-Q4",
      }),
      201,
    );
    ok(
      await admin.post("/commissions/adjustments", {
        deal_id: disputed.id,
        user_id: bob,
        amount: 0.1,
        reason: "r",
        period: "2026-Q4",
      }),
      201,
    );

    // A euro deal earns its plan line in the plan's USD (1 USD = 0.8 EUR: credit 1,250.00, line 125.00);
    // an adjustment on it is owed in euros.
    ok(await admin.put("/exchange-rates/2026-07-15", { base: "USD", rates: { EUR: "0.8" } }), 201);
    const euroDeal = await deal(ann, 1000, "approved", { currency: "EUR" });
    ok(
      await admin.post("/commissions/adjustments", {
        deal_id: euroDeal.id,
        user_id: ann,
        amount: 50,
        currency: "EUR",
        reason: "r",
        period: "2026-Q3",
      }),
      201,
    );

    const page = await payouts();
    expect(page).toEqual({
      data: [
        {
          user_id: ann,
          user_name: "Ann Payee",
          period: "2026-Q3",
          currency: "EUR",
          total: 50,
          line_count: 1,
          deal_count: 1,
        },
        {
          user_id: ann,
          user_name: "Ann Payee",
          period: "2026-Q3",
          currency: "USD",
          total: 2359.67,
          line_count: 4,
          deal_count: 3,
        },
        {
          user_id: bob,
          user_name: "Bob Payee",
          period: "2026-Q3",
          currency: "USD",
          total: 333.33,
          line_count: 1,
          deal_count: 1,
        },
        {
          user_id: bob,
          user_name: "Bob Payee",
          period: "2026-Q4",
          currency: "USD",
          total: 80.3,
          line_count: 3,
          deal_count: 2,
        },
      ],
      meta: { page: 1, per_page: 25, total: 4 },
    });
  });

  it("filters by user and period, and pages the groups (meta.total counts groups)", async () => {
    expect((await payouts(`?user_id=${bob}`)).data.map((g) => g.period)).toEqual(["2026-Q3", "2026-Q4"]);
    expect((await payouts(`?user_id=${ann}`)).data.map((g) => g.currency)).toEqual(["EUR", "USD"]);
    expect((await payouts("?period=2026-Q4")).data.map((g) => [g.user_id, g.total])).toEqual([[bob, 80.3]]);
    const second = await payouts("?per_page=3&page=2");
    expect(second.meta).toEqual({ page: 2, per_page: 3, total: 4 });
    expect(second.data.map((g) => [g.user_id, g.period])).toEqual([[bob, "2026-Q4"]]);
  });

  it("a deal marked paid leaves its group", async () => {
    ok(await admin.post(`/deals/${annFirst}/mark-paid`));
    const [, annGroup] = (await payouts(`?user_id=${ann}`)).data;
    expect(annGroup).toMatchObject({ total: 1359.57, line_count: 2, deal_count: 2 });
  });

  it("422 names a bad or unknown query parameter", async () => {
    for (const [query, param] of [
      ["?period=2026-13", "period"],
      ["?per_page=101", "per_page"],
      ["?status=approved", "status"],
    ]) {
      const res = await admin.get(`/payouts${query}`);
      expect(res.statusCode).toBe(422);
      expect(errorOf(res)).toMatchObject({ code: "validation_error", details: [expect.objectContaining({ param })] });
    }
  });
});

describe("GET /payouts: who may read it", () => {
  it("401 without credentials", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/payouts" });
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).code).toBe("unauthorized");
  });

  it("a read key may (keys keep their company-wide scopes)", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/v1/payouts",
      headers: bearer((await t.key("read")).key),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().meta.total).toBe(4);
  });

  const cases: [Role, number][] = [
    ["finance", 200],
    ["admin", 200],
    ["rep", 403],
    ["manager", 403],
  ];
  it.each(cases)("a %s's session gets %i", async (role, status) => {
    const session = await signedInAs(t, { role });
    const res = await t.app.inject({ method: "GET", url: "/api/v1/payouts", headers: session.headers("GET") });
    expect(res.statusCode).toBe(status);
    if (status === 200) expect(res.json().meta.total).toBe(4);
    else expect(errorOf(res)).toMatchObject({ code: "forbidden", message: expect.stringMatching(/admin|finance/) });
  });
});
