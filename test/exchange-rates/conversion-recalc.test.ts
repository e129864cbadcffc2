import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DealDetail } from "../../src/deals/index.js";
import { createUser } from "../factories.js";
import { Api, assign, createDeal, createPlan, getDeal, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";

/**
 * API.md §15's worked examples through the HTTP API and the recalculation, to the cent: rates PUT, deals
 * in one currency earning under plans in another, `fx_missing` while no rate is usable, and what a rate
 * PUT recalculates. Each case has its own rep, plan and rate dates (rates are global).
 */

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(() => t.close());

type Line = DealDetail["commissions"][number];
const planLine = (deal: DealDetail): Line => {
  const lines = deal.commissions.filter((l) => l.kind === "plan");
  expect(lines).toHaveLength(1);
  return lines[0]!;
};

/** A rep on a plan in `currency` paying `rate` flat (one tier from 0). */
async function repOn(currency: string, rate: number) {
  const user = await createUser(t);
  const plan = await createPlan(api, { currency, quota: 100000, tiers: [{ from_attainment: 0, rate }] });
  await assign(api, plan.id, user.id);
  return { user, plan };
}

async function putRates(date: string, base: string, rates: Record<string, string>) {
  const exists = ok<{ data: unknown[] }>(await api.get(`/exchange-rates?date=${date}&base=${base}`)).data.length > 0;
  return ok<{ recalculation_job_id: string | null }>(
    await api.put(`/exchange-rates/${date}`, { base, rates }),
    exists ? 200 : 201,
  );
}

describe("API.md §15 worked examples", () => {
  it("F1: EUR 1,007.00 on a USD plan at 15 % converts at 25/23 and rounds the line once: USD 164.18", async () => {
    await putRates("2026-03-09", "USD", { EUR: "0.92" });
    const { user, plan } = await repOn("USD", 0.15);
    const deal = await createDeal(api, user.id, { arr_amount: 1007, currency: "EUR", close_date: "2026-03-10" });
    const line = planLine(deal);
    expect(line.amount).toBe(164.18);
    expect(line.currency).toBe("USD");
    expect(line.plan_id).toBe(plan.id);
    expect(line.explanation.fx).toEqual({
      from: "EUR",
      to: "USD",
      rate: "25/23",
      rate_date: "2026-03-09",
      base: "USD",
      credit_in_deal_currency: "1007",
      credit: "25175/23",
    });
    expect(deal.fx_missing).toEqual([]);
    expect(deal.total_commission).toBe(164.18);
    // The statement sums the exact converted credit (25175/23 = 1,094.565…) and shows it to the cent.
    const statement = ok<{ currency: string; plans: { attainment: number; currency: string }[] }>(
      await api.get(`/users/${user.id}/statement?period=2026-Q1`),
    );
    expect(statement.currency).toBe("USD");
    expect(statement.plans.map((p) => [p.attainment, p.currency])).toEqual([[1094.57, "USD"]]);
  });

  it("F2: a cross rate through the base: GBP 10,000.00 on a EUR plan at 10 % → EUR 1,164.56", async () => {
    await putRates("2026-04-14", "USD", { EUR: "0.92", GBP: "0.79" });
    const { user } = await repOn("EUR", 0.1);
    const deal = await createDeal(api, user.id, { arr_amount: 10000, currency: "GBP", close_date: "2026-04-15" });
    const line = planLine(deal);
    expect([line.amount, line.currency]).toEqual([1164.56, "EUR"]);
    expect(line.explanation.fx).toMatchObject({ rate: "92/79", credit: "920000/79", base: "USD" });
  });

  it("F3: USD 12,345.67 on a JPY plan at 5 % → JPY 93355 (no decimals)", async () => {
    await putRates("2026-05-14", "USD", { JPY: "151.2345" });
    const { user } = await repOn("JPY", 0.05);
    const deal = await createDeal(api, user.id, { arr_amount: 12345.67, currency: "USD", close_date: "2026-05-14" });
    const line = planLine(deal);
    expect([line.amount, line.currency]).toEqual([93355, "JPY"]);
    expect(line.explanation.fx).toMatchObject({ rate: "151.2345", credit: "1867091.229615" });
  });

  it("F4: a rate 8 days old is not usable: no line, fx_missing, approval refused; a PUT recalculates it to F1", async () => {
    await putRates("2026-06-02", "USD", { EUR: "0.92" });
    const { user } = await repOn("USD", 0.15);
    const created = await createDeal(api, user.id, { arr_amount: 1007, currency: "EUR", close_date: "2026-06-10" });
    expect(created.commissions.filter((l) => l.kind === "plan")).toEqual([]);
    expect(created.fx_missing).toEqual([{ from: "EUR", to: "USD", close_date: "2026-06-10" }]);
    expect(created.explanation?.no_plan).toEqual([
      { user_id: user.id, reason: "no EUR→USD rate within 7 days before 2026-06-10" },
    ]);

    const listed = ok<{ data: { id: string }[] }>(await api.get("/deals?fx_missing=true&per_page=100"));
    expect(listed.data.map((d) => d.id)).toContain(created.id);
    const refused = await api.post(`/deals/${created.id}/approve`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe("conflict");
    expect(refused.json().error.message).toContain("EUR→USD");

    const put = await putRates("2026-06-09", "USD", { EUR: "0.92" });
    expect(put.recalculation_job_id).toBeNull();
    const after = await getDeal(api, created.id);
    expect(after.fx_missing).toEqual([]);
    expect(after.explanation).toBeNull();
    expect([planLine(after).amount, planLine(after).currency]).toEqual([164.18, "USD"]);
    const missing = ok<{ data: { id: string }[] }>(await api.get("/deals?fx_missing=true&per_page=100"));
    expect(missing.data.map((d) => d.id)).not.toContain(created.id);
    ok(await api.post(`/deals/${created.id}/approve`));
  });
});

describe("§15 conversions the issue names", () => {
  it("a JPY deal on a USD plan: JPY 1,500,000 at 1/151.2345 → credit 1000000000/100823, 10 % → USD 991.84", async () => {
    await putRates("2026-07-01", "USD", { JPY: "151.2345" });
    const { user } = await repOn("USD", 0.1);
    const deal = await createDeal(api, user.id, { arr_amount: 1500000, currency: "JPY", close_date: "2026-07-01" });
    const line = planLine(deal);
    expect([line.amount, line.currency]).toEqual([991.84, "USD"]);
    expect(line.explanation.fx).toMatchObject({ rate: "2000/302469", credit: "1000000000/100823" });
  });

  it("a weekend close date takes Friday's rate", async () => {
    await putRates("2026-08-07", "USD", { EUR: "0.92" }); // a Friday
    const { user } = await repOn("USD", 0.15);
    const deal = await createDeal(api, user.id, { arr_amount: 1007, currency: "EUR", close_date: "2026-08-09" });
    expect(planLine(deal).amount).toBe(164.18);
    expect(planLine(deal).explanation.fx).toMatchObject({ rate_date: "2026-08-07" });
  });

  it("a KWD amount with 3 decimals: KWD 1,234.567 at 1/0.307 → USD 402.14", async () => {
    await putRates("2026-09-01", "USD", { KWD: "0.307" });
    const { user } = await repOn("USD", 0.1);
    const deal = await createDeal(api, user.id, { arr_amount: 1234.567, currency: "KWD", close_date: "2026-09-01" });
    expect(deal.arr_amount).toBe(1234.567);
    const line = planLine(deal);
    expect([line.amount, line.currency]).toEqual([402.14, "USD"]);
    expect(line.explanation.fx).toMatchObject({ credit_in_deal_currency: "1234.567", credit: "1234567/307" });
  });

  it("a DELETE of the rate set takes the line away again and names the pair", async () => {
    await putRates("2026-10-05", "USD", { EUR: "0.92" });
    const { user } = await repOn("USD", 0.15);
    const deal = await createDeal(api, user.id, { arr_amount: 1007, currency: "EUR", close_date: "2026-10-06" });
    expect(planLine(deal).amount).toBe(164.18);
    ok(await api.del("/exchange-rates/2026-10-05?base=USD"), 204);
    const after = await getDeal(api, deal.id);
    expect(after.commissions.filter((l) => l.kind === "plan")).toEqual([]);
    expect(after.fx_missing).toEqual([{ from: "EUR", to: "USD", close_date: "2026-10-06" }]);
    expect(after.total_commission).toBe(0);
  });

  it("a locked converted line never moves when its rate set is replaced", async () => {
    await putRates("2026-11-02", "USD", { EUR: "0.92" });
    const { user } = await repOn("USD", 0.15);
    const deal = await createDeal(api, user.id, { arr_amount: 1007, currency: "EUR", close_date: "2026-11-02" });
    ok(await api.post(`/deals/${deal.id}/approve`));
    await putRates("2026-11-02", "USD", { EUR: "0.5" });
    const after = await getDeal(api, deal.id);
    expect([planLine(after).amount, planLine(after).status]).toEqual([164.18, "approved"]);
    expect(planLine(after).explanation.fx).toMatchObject({ rate: "25/23" });
  });

  it("a SPIFF converts into its own currency: EUR 1,007.00 at 1 % of a USD SPIFF → USD 10.95 beside the EUR plan line", async () => {
    await putRates("2026-12-01", "USD", { EUR: "0.92" });
    const { user } = await repOn("EUR", 0.1);
    ok(
      await api.post("/spiffs", {
        name: "December push",
        currency: "USD",
        starts_on: "2026-12-01",
        ends_on: "2026-12-31",
        criteria: { user_ids: [user.id] },
        payout: { type: "rate", rate: 0.01 },
      }),
      201,
    );
    const deal = await createDeal(api, user.id, { arr_amount: 1007, currency: "EUR", close_date: "2026-12-01" });
    const byKind = Object.fromEntries(deal.commissions.map((l) => [l.kind, [l.amount, l.currency]]));
    expect(byKind).toEqual({ plan: [100.7, "EUR"], spiff: [10.95, "USD"] });
    const spiff = deal.commissions.find((l) => l.kind === "spiff")!;
    expect(spiff.explanation.fx).toMatchObject({ rate: "25/23", credit: "25175/23" });
  });

  it("an override plan converts: USD 10,000.00 below a manager on a EUR override plan at 3 % → EUR 276.00", async () => {
    await putRates("2026-12-07", "USD", { EUR: "0.92" });
    const manager = await createUser(t, { role: "manager" });
    const override = ok<{ id: string }>(
      await api.post("/comp-plans", {
        name: "EUR override",
        kind: "override",
        currency: "EUR",
        period: "quarter",
        effective_from: "2026-01-01",
        override_levels: [{ depth: 1, rate: 0.03 }],
      }),
      201,
    );
    await assign(api, override.id, manager.id);
    const { user } = await repOn("USD", 0.1);
    ok(await api.patch(`/users/${user.id}`, { manager_id: manager.id, manager_effective_from: "2026-01-01" }));
    const deal = await createDeal(api, user.id, { arr_amount: 10000, currency: "USD", close_date: "2026-12-08" });
    const line = deal.commissions.find((l) => l.kind === "override")!;
    expect([line.user_id, line.amount, line.currency]).toEqual([manager.id, 276, "EUR"]);
    expect(line.explanation.fx).toMatchObject({ from: "USD", to: "EUR", rate: "0.92", credit: "9200" });
  });

  it("a cancellation claws back per currency: the USD plan line and the EUR SPIFF line each in their own", async () => {
    await putRates("2026-12-14", "USD", { EUR: "0.92" });
    const user = await createUser(t);
    const plan = await createPlan(api, {
      currency: "USD",
      quota: 100000,
      tiers: [{ from_attainment: 0, rate: 0.15 }],
      clawback: { window_days: 90, percent: 100, proration: "none" },
    });
    await assign(api, plan.id, user.id);
    ok(
      await api.post("/spiffs", {
        name: "EUR kicker",
        currency: "EUR",
        starts_on: "2026-12-14",
        ends_on: "2026-12-31",
        criteria: { user_ids: [user.id] },
        payout: { type: "flat", amount: 50 },
      }),
      201,
    );
    const deal = await createDeal(api, user.id, { arr_amount: 1007, currency: "EUR", close_date: "2026-12-15" });
    ok(await api.post(`/deals/${deal.id}/approve`));
    ok(await api.post(`/deals/${deal.id}/cancel`, { reason: "churned", effective_date: "2026-12-20" }));
    const after = await getDeal(api, deal.id);
    const clawbacks = after.commissions
      .filter((l) => l.kind === "clawback")
      .map((l) => [l.amount, l.currency])
      .sort();
    expect(clawbacks).toEqual([
      [-164.18, "USD"],
      [-50, "EUR"],
    ]);
  });

  it("a clawback of a KWD line on a USD deal keeps 3 decimals, and its summary row names the currency", async () => {
    await putRates("2026-12-21", "USD", { KWD: "0.307" });
    const user = await createUser(t);
    const plan = await createPlan(api, {
      currency: "KWD",
      quota: 100000,
      tiers: [{ from_attainment: 0, rate: 0.1 }],
      clawback: { window_days: 90, percent: 100, proration: "none" },
    });
    await assign(api, plan.id, user.id);
    // USD 1,000.05 × 0.307 = KWD 307.01535; 10 % → 30.701535 → KWD 30.702.
    const deal = await createDeal(api, user.id, { arr_amount: 1000.05, currency: "USD", close_date: "2026-12-21" });
    expect(planLine(deal)).toMatchObject({ amount: 30.702, currency: "KWD" });
    ok(await api.post(`/deals/${deal.id}/approve`));
    const preview = ok<{ clawback_summary: unknown[] }>(
      await api.post(`/deals/${deal.id}/clawback-preview`, { type: "cancel", effective_date: "2026-12-22" }),
    );
    const cancelled = ok<{ clawback_summary: unknown[] }>(
      await api.post(`/deals/${deal.id}/cancel`, { reason: "churned", effective_date: "2026-12-22" }),
    );
    for (const summary of [preview.clawback_summary, cancelled.clawback_summary]) {
      expect(summary).toEqual([
        expect.objectContaining({ user_id: user.id, plan_id: plan.id, currency: "KWD", amount: -30.702 }),
      ]);
    }
    const line = (await getDeal(api, deal.id)).commissions.find((l) => l.kind === "clawback")!;
    expect([line.amount, line.currency, line.explanation.amount]).toEqual([-30.702, "KWD", -30.702]);
  });
});
