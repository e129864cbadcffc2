import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DealDetail } from "../../src/deals/index.js";
import { createUser, unique } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";

// API.md §15: money has at most its currency's minor-unit decimals; more → 422 validation_error naming
// the field (§2). Every money field a client writes, in JPY (0), KWD (3) and USD (2).

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(() => t.close());

/** Over the currency's places: JPY 1000.5, KWD 1.2345, USD 1.234; and the most each allows. */
const CASES = [
  { currency: "JPY", over: 1000.5, fits: 1000, places: 0 },
  { currency: "KWD", over: 1.2345, fits: 1.234, places: 3 },
  { currency: "USD", over: 1.234, fits: 1.23, places: 2 },
] as const;
type Case = (typeof CASES)[number];

function expect422(res: LightMyRequestResponse, param: string, places: number) {
  expect(res.statusCode, res.body).toBe(422);
  const { error } = res.json();
  expect(error.code).toBe("validation_error");
  const detail = error.details.find((d: { param: string }) => d.param === param);
  expect(detail, JSON.stringify(error.details)).toBeDefined();
  expect(detail.message).toMatch(new RegExp(`at most ${places} decimal places`));
}

/** A rep on a plan in `currency` (10 %, no tiers) and an approved deal of theirs in it. */
async function approvedDeal(currency: string) {
  const user = await createUser(t);
  const plan = await createPlan(api, { currency, tiers: null, quota: null, base_rate: 0.1 });
  await assign(api, plan.id, user.id);
  const deal = await createDeal(api, user.id, { currency, arr_amount: 100000 });
  await approveAsOwner(t, deal.id);
  return { user, plan, deal };
}

/** Each field: the request that writes `amount` into it, and the param the 422 names. */
const FIELDS: { field: string; param: string; send: (c: Case, amount: number) => Promise<LightMyRequestResponse> }[] = [
  {
    field: "deal arr_amount (POST /deals)",
    param: "arr_amount",
    send: async (c, amount) => {
      const user = await createUser(t);
      return api.post("/deals", {
        opportunity_name: unique("Deal"),
        arr_amount: amount,
        currency: c.currency,
        close_date: "2026-07-15",
        owner_id: user.id,
      });
    },
  },
  {
    field: "deal arr_amount (PUT /deals/by-external-id/…)",
    param: "arr_amount",
    send: async (c, amount) => {
      const user = await createUser(t);
      const external = unique("crm");
      return api.put(`/deals/by-external-id/${external}`, {
        opportunity_name: unique("Deal"),
        arr_amount: amount,
        currency: c.currency,
        close_date: "2026-07-15",
        owner_id: user.id,
      });
    },
  },
  {
    field: "deal arr_amount (PATCH of the amount only: the stored currency)",
    param: "arr_amount",
    send: async (c, amount) => {
      const user = await createUser(t);
      const deal = await createDeal(api, user.id, { currency: c.currency, arr_amount: 1000 });
      return api.patch(`/deals/${deal.id}`, { arr_amount: amount });
    },
  },
  {
    field: "deal arr_amount (PATCH of the currency only: the stored amount)",
    param: "arr_amount",
    send: async (c, amount) => {
      const user = await createUser(t);
      // Stored in a currency that allows the amount, then moved to the case's currency.
      const deal = await createDeal(api, user.id, { currency: "BHD", arr_amount: Math.trunc(amount * 1000) / 1000 });
      if (c.currency === "KWD") return api.patch(`/deals/${deal.id}`, { arr_amount: amount }); // 4 places fit nothing
      return api.patch(`/deals/${deal.id}`, { currency: c.currency });
    },
  },
  {
    field: "refund amount",
    param: "amount",
    send: async (c, amount) => {
      const { deal } = await approvedDeal(c.currency);
      return api.post(`/deals/${deal.id}/refunds`, { amount, effective_date: "2026-08-01" });
    },
  },
  {
    field: "clawback-preview amount (a refund)",
    param: "amount",
    send: async (c, amount) => {
      const { deal } = await approvedDeal(c.currency);
      return api.post(`/deals/${deal.id}/clawback-preview`, { type: "refund", amount, effective_date: "2026-08-01" });
    },
  },
  ...(["quota", "min_deal_amount", "cap_per_period"] as const).map((name) => ({
    field: `plan ${name} (POST /comp-plans)`,
    param: name,
    send: (c: Case, amount: number) =>
      api.post("/comp-plans", {
        name: unique("Plan"),
        period: "quarter",
        effective_from: "2026-01-01",
        currency: c.currency,
        quota: 100000,
        tiers: [
          { from_attainment: 0, rate: 0.1 },
          { from_attainment: 1, rate: 0.15 },
        ],
        [name]: amount,
      }),
  })),
  {
    field: "plan quota (PATCH of the quota only: the stored currency)",
    param: "quota",
    send: async (c, amount) => {
      const plan = await createPlan(api, { currency: c.currency });
      return api.patch(`/comp-plans/${plan.id}`, { quota: amount });
    },
  },
  {
    field: "plan cap_per_period (PATCH of the currency only: the stored amounts)",
    param: "cap_per_period",
    send: async (c, amount) => {
      if (c.currency === "KWD") {
        const plan = await createPlan(api, { currency: "KWD" });
        return api.patch(`/comp-plans/${plan.id}`, { cap_per_period: amount });
      }
      const plan = await createPlan(api, { currency: "BHD", cap_per_period: amount });
      return api.patch(`/comp-plans/${plan.id}`, { currency: c.currency });
    },
  },
  {
    field: "assignment quota_override (POST)",
    param: "quota_override",
    send: async (c, amount) => {
      const plan = await createPlan(api, { currency: c.currency });
      const user = await createUser(t);
      return api.post(`/comp-plans/${plan.id}/assignments`, {
        user_id: user.id,
        effective_from: "2026-01-01",
        quota_override: amount,
      });
    },
  },
  {
    field: "assignment quota_override (PATCH)",
    param: "quota_override",
    send: async (c, amount) => {
      const plan = await createPlan(api, { currency: c.currency });
      const asg = await assign(api, plan.id, (await createUser(t)).id);
      return api.patch(`/plan-assignments/${asg.id}`, { quota_override: amount });
    },
  },
  {
    field: "SPIFF flat amount (POST /spiffs)",
    param: "payout.amount",
    send: (c, amount) =>
      api.post("/spiffs", {
        name: unique("SPIFF"),
        currency: c.currency,
        starts_on: "2026-07-01",
        ends_on: "2026-09-30",
        payout: { type: "flat", amount },
      }),
  },
  {
    field: "SPIFF min_arr_amount (POST /spiffs)",
    param: "criteria.min_arr_amount",
    send: (c, amount) =>
      api.post("/spiffs", {
        name: unique("SPIFF"),
        currency: c.currency,
        starts_on: "2026-07-01",
        ends_on: "2026-09-30",
        criteria: { min_arr_amount: amount },
        payout: { type: "rate", rate: 0.01 },
      }),
  },
  {
    field: "SPIFF flat amount (PATCH of the currency only)",
    param: "payout.amount",
    send: async (c, amount) => {
      const body = { name: unique("SPIFF"), starts_on: "2026-07-01", ends_on: "2026-09-30" };
      if (c.currency === "KWD") {
        const spiff = ok<{ id: string }>(
          await api.post("/spiffs", { ...body, currency: "KWD", payout: { type: "flat", amount: 1 } }),
          201,
        );
        return api.patch(`/spiffs/${spiff.id}`, { payout: { type: "flat", amount } });
      }
      const spiff = ok<{ id: string }>(
        await api.post("/spiffs", { ...body, currency: "BHD", payout: { type: "flat", amount } }),
        201,
      );
      return api.patch(`/spiffs/${spiff.id}`, { currency: c.currency });
    },
  },
  {
    field: "adjustment amount (the deal's currency)",
    param: "amount",
    send: async (c, amount) => {
      const { user, deal } = await approvedDeal(c.currency);
      return api.post("/commissions/adjustments", { deal_id: deal.id, user_id: user.id, amount, reason: "bonus" });
    },
  },
  {
    field: "dispute expected_amount",
    param: "expected_amount",
    send: async (c, amount) => {
      const { deal } = await approvedDeal(c.currency);
      return api.post(`/deals/${deal.id}/disputes`, { reason: "wrong_amount", expected_amount: amount });
    },
  },
  {
    field: "dispute resolved_amount",
    param: "resolved_amount",
    send: async (c, amount) => {
      const { deal } = await approvedDeal(c.currency);
      const dispute = ok<{ id: string }>(await api.post(`/deals/${deal.id}/disputes`, { reason: "other" }), 201);
      return api.post(`/disputes/${dispute.id}/resolve`, { outcome: "partially_approved", resolved_amount: amount });
    },
  },
];

describe("money with more decimals than its currency allows → 422 naming the field (API.md §15)", () => {
  const rows = FIELDS.flatMap((f) => CASES.map((c) => [f.field, c.currency, c.over, f, c] as const));
  it.each(rows)("%s: %s %s → 422", async (_field, _currency, _over, f, c) => {
    expect422(await f.send(c, c.over), f.param, c.places);
  });
});

describe("the currency's own decimals are accepted", () => {
  it.each(CASES.map((c) => [c.currency, c.fits, c] as const))("a %s deal of %s", async (_currency, _fits, c) => {
    const user = await createUser(t);
    const deal = await createDeal(api, user.id, { currency: c.currency, arr_amount: c.fits });
    expect(deal.arr_amount).toBe(c.fits);
  });

  it("a KWD plan, SPIFF and refund with 3 decimals", async () => {
    const plan = await createPlan(api, { currency: "KWD", quota: 1000.125, cap_per_period: 50.005 });
    expect(plan).toMatchObject({ quota: 1000.125, cap_per_period: 50.005 });
    const spiff = ok<{ payout: unknown }>(
      await api.post("/spiffs", {
        name: unique("SPIFF"),
        currency: "KWD",
        starts_on: "2026-07-01",
        ends_on: "2026-09-30",
        payout: { type: "flat", amount: 12.345 },
      }),
      201,
    );
    expect(spiff.payout).toEqual({ type: "flat", amount: 12.345 });
    const { deal } = await approvedDeal("KWD");
    const refund = ok<{ amount: number }>(
      await api.post(`/deals/${deal.id}/refunds`, { amount: 10.005, effective_date: "2026-08-01" }),
      201,
    );
    expect(refund.amount).toBe(10.005);
    const after = ok<DealDetail>(await api.get(`/deals/${deal.id}`));
    expect(after.refunded_amount).toBe(10.005);
  });

  it("a plan's currency cannot change to one its assignments' quota overrides do not fit", async () => {
    const plan = await createPlan(api, { currency: "KWD" });
    const asg = await assign(api, plan.id, (await createUser(t)).id, { quota_override: 5000.5 });
    const res = await api.patch(`/comp-plans/${plan.id}`, { currency: "JPY" });
    expect422(res, "currency", 0);
    expect(res.json().error.details[0].message).toContain(asg.id);
  });
});
