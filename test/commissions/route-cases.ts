import type { Dispute } from "../../src/disputes/index.js";
import type { SpiffWritten } from "../../src/spiffs/testing.js";
import { createUser, unique } from "../factories.js";
import {
  Api,
  approveAsOwner,
  assign,
  createDeal,
  createPlan,
  dealBody,
  ok,
  planBody,
} from "../factories-commissions.js";
import type { TestApp } from "../harness.js";
import type { RouteCase } from "../route-case.js";

/** The security-table rows (test/route-case.ts) of comp plans, assignments, SPIFFs, deals, commissions and disputes. */

let userId = "";
/** An approved deal and its owner, for the adjustment row's body. */
let adjusted = { dealId: "", ownerId: "" };

/** Gives the rows a user (and a deal) to name in bodies before any row's `record` ran. */
export async function prepareRouteCases(t: TestApp): Promise<void> {
  userId = (await createUser(t)).id;
  const deal = await createDeal(new Api(t), userId);
  await approveAsOwner(t, deal.id);
  adjusted = { dealId: deal.id, ownerId: userId };
}
const newPlan = async (t: TestApp) => (await createPlan(new Api(t))).id;
const newUser = async (t: TestApp) => {
  userId = (await createUser(t)).id;
  return userId;
};
const planAndUser = async (t: TestApp) => {
  await newUser(t);
  return newPlan(t);
};
const newAssignment = async (t: TestApp) => {
  const api = new Api(t);
  return (await assign(api, await newPlan(t), await newUser(t))).id;
};
const newSpiff = async (t: TestApp) =>
  ok<SpiffWritten>(
    await new Api(t).post("/spiffs", {
      name: "S",
      starts_on: "2020-01-01",
      ends_on: "2020-01-31",
      payout: { type: "flat", amount: 1 },
    }),
    201,
  ).id;
const newDeal = async (t: TestApp) => (await createDeal(new Api(t), await newUser(t))).id;
const approvedDeal = async (t: TestApp) => {
  const id = await newDeal(t);
  await approveAsOwner(t, id);
  return id;
};
const newDispute = async (t: TestApp) =>
  ok<Dispute>(await new Api(t).post(`/deals/${await approvedDeal(t)}/disputes`, { reason: "other" }), 201).id;
const newLine = async (t: TestApp) => {
  const api = new Api(t);
  const plan = await createPlan(api, { tiers: null, quota: null, base_rate: 0.1 });
  await assign(api, plan.id, await newUser(t));
  return (await createDeal(api, userId)).commissions[0]!.id;
};
const deal = () => dealBody(userId);
const longId = "x".repeat(256);

export const COMMISSION_ROUTES: RouteCase[] = [
  {
    method: "GET",
    path: "/api/v1/comp-plans",
    scope: "read",
    ok: 200,
    invalid: { query: "status=open", param: "status" },
  },
  {
    method: "GET",
    path: "/api/v1/comp-plans/{id}",
    scope: "read",
    ok: 200,
    record: newPlan,
    idPrefix: "plan",
    invalid: { id: longId, param: "id" },
  },
  {
    method: "POST",
    path: "/api/v1/comp-plans",
    scope: "admin",
    ok: 201,
    body: () => planBody(),
    invalid: { body: planBody({ period: "week" }), param: "period" },
  },
  {
    method: "PATCH",
    path: "/api/v1/comp-plans/{id}",
    scope: "admin",
    ok: 200,
    record: newPlan,
    idPrefix: "plan",
    body: () => ({ name: unique("Plan") }),
    invalid: { body: { quota: -1 }, param: "quota" },
  },
  {
    method: "POST",
    path: "/api/v1/comp-plans/{id}/impact",
    scope: "admin",
    ok: 200,
    record: newPlan,
    idPrefix: "plan",
    body: () => ({ base_rate: 0.2, tiers: null }),
    invalid: { body: { quota: -1 }, param: "quota" },
  },
  {
    method: "GET",
    path: "/api/v1/comp-plans/{id}/versions",
    scope: "read",
    ok: 200,
    record: newPlan,
    idPrefix: "plan",
    invalid: { query: "per_page=101", param: "per_page" },
  },
  {
    method: "GET",
    path: "/api/v1/comp-plans/{id}/assignments",
    scope: "read",
    ok: 200,
    record: newPlan,
    idPrefix: "plan",
    invalid: { query: "per_page=0", param: "per_page" },
  },
  {
    method: "POST",
    path: "/api/v1/comp-plans/{id}/assignments",
    scope: "admin",
    ok: 201,
    record: planAndUser,
    idPrefix: "plan",
    body: () => ({ user_id: userId, effective_from: "2026-01-01" }),
    invalid: { body: { user_id: "u", effective_from: "2026-13-01" }, param: "effective_from" },
  },
  {
    method: "GET",
    path: "/api/v1/plan-assignments",
    scope: "read",
    ok: 200,
    invalid: { query: "per_page=0", param: "per_page" },
  },
  {
    method: "GET",
    path: "/api/v1/plan-assignments/{id}",
    scope: "read",
    ok: 200,
    record: newAssignment,
    idPrefix: "asg",
    invalid: { id: longId, param: "id" },
  },
  {
    method: "PATCH",
    path: "/api/v1/plan-assignments/{id}",
    scope: "admin",
    ok: 200,
    record: newAssignment,
    idPrefix: "asg",
    body: () => ({ quota_override: 5000 }),
    invalid: { body: { quota_override: 1.001 }, param: "quota_override" },
  },
  {
    method: "DELETE",
    path: "/api/v1/plan-assignments/{id}",
    scope: "admin",
    ok: 204,
    record: newAssignment,
    idPrefix: "asg",
    invalid: { id: longId, param: "id" },
  },
  {
    method: "GET",
    path: "/api/v1/spiffs",
    scope: "read",
    ok: 200,
    invalid: { query: "active=maybe", param: "active" },
  },
  {
    method: "GET",
    path: "/api/v1/spiffs/{id}",
    scope: "read",
    ok: 200,
    record: newSpiff,
    idPrefix: "spiff",
    invalid: { id: longId, param: "id" },
  },
  {
    method: "POST",
    path: "/api/v1/spiffs",
    scope: "admin",
    ok: 201,
    body: () => ({ name: "S", starts_on: "2020-01-01", ends_on: "2020-01-02", payout: { type: "rate", rate: 0.01 } }),
    invalid: {
      body: { name: "S", starts_on: "2020-01-01", ends_on: "2020-01-02", payout: { type: "rate", rate: 20 } },
      param: "payout.rate",
    },
  },
  {
    method: "PATCH",
    path: "/api/v1/spiffs/{id}",
    scope: "admin",
    ok: 200,
    record: newSpiff,
    idPrefix: "spiff",
    body: () => ({ name: unique("S") }),
    invalid: { body: { active: "yes" }, param: "active" },
  },
  {
    method: "DELETE",
    path: "/api/v1/spiffs/{id}",
    scope: "admin",
    ok: 204,
    record: newSpiff,
    idPrefix: "spiff",
    invalid: { id: longId, param: "id" },
  },
  { method: "GET", path: "/api/v1/deals", scope: "read", ok: 200, invalid: { query: "sort=name", param: "sort" } },
  {
    method: "GET",
    path: "/api/v1/deals/{id}",
    scope: "read",
    ok: 200,
    record: newDeal,
    idPrefix: "deal",
    invalid: { id: longId, param: "id" },
  },
  {
    method: "GET",
    path: "/api/v1/deals/{id}/history",
    scope: "read",
    ok: 200,
    record: newDeal,
    idPrefix: "deal",
    invalid: { query: "per_page=0", param: "per_page" },
  },
  {
    method: "POST",
    path: "/api/v1/deals",
    scope: "write",
    ok: 201,
    body: () => dealBody(userId),
    invalid: { body: { ...dealBody("usr_x"), arr_amount: -1 }, param: "arr_amount" },
  },
  {
    method: "PATCH",
    path: "/api/v1/deals/{id}",
    scope: "write",
    ok: 200,
    record: newDeal,
    idPrefix: "deal",
    body: () => ({ arr_amount: 20000 }),
    invalid: { body: { close_date: "tomorrow" }, param: "close_date" },
  },
  {
    method: "DELETE",
    path: "/api/v1/deals/{id}",
    scope: "write",
    ok: 204,
    record: newDeal,
    idPrefix: "deal",
    invalid: { id: longId, param: "id" },
  },
  {
    method: "POST",
    path: "/api/v1/deals/{id}/approve",
    scope: "admin",
    ok: 200,
    record: newDeal,
    idPrefix: "deal",
    invalid: { body: { note: "ok" }, param: "note" },
  },
  {
    method: "POST",
    path: "/api/v1/deals/{id}/reject",
    scope: "admin",
    ok: 200,
    record: newDeal,
    idPrefix: "deal",
    body: () => ({ reason: "duplicate" }),
    invalid: { body: {}, param: "reason" },
  },
  {
    method: "POST",
    path: "/api/v1/deals/{id}/mark-paid",
    scope: "admin",
    ok: 200,
    record: approvedDeal,
    idPrefix: "deal",
    invalid: { body: { paid_on: "2026-01-01" }, param: "paid_on" },
  },
  {
    method: "POST",
    path: "/api/v1/deals/{id}/disputes",
    scope: "write",
    ok: 201,
    record: approvedDeal,
    idPrefix: "deal",
    body: () => ({ reason: "wrong_amount", expected_amount: 1500 }),
    invalid: { body: { reason: "bored" }, param: "reason" },
  },
  {
    method: "PUT",
    path: "/api/v1/deals/by-external-id/{external_id}",
    scope: "write",
    ok: 201,
    param: () => unique("crm"),
    body: deal,
    invalid: { body: { ...dealBody("usr_x"), splits: [] }, param: "splits" },
  },
  {
    method: "POST",
    path: "/api/v1/deals/bulk",
    scope: "write",
    ok: 200,
    body: () => ({ deals: [{ ...deal(), external_id: unique("crm") }] }),
    invalid: {
      body: { deals: [{ ...dealBody("usr_x"), external_id: "e", currency: "usd" }] },
      param: "deals[0].currency",
    },
  },
  {
    method: "GET",
    path: "/api/v1/commissions",
    scope: "read",
    ok: 200,
    invalid: { query: "kind=bonus", param: "kind" },
  },
  {
    method: "GET",
    path: "/api/v1/commissions/{id}",
    scope: "read",
    ok: 200,
    record: newLine,
    idPrefix: "com",
    invalid: { id: longId, param: "id" },
  },
  {
    method: "POST",
    path: "/api/v1/commissions/preview",
    scope: "read",
    ok: 200,
    body: deal,
    invalid: { body: { ...dealBody("usr_x"), arr_amount: 0.001 }, param: "arr_amount" },
  },
  {
    method: "POST",
    path: "/api/v1/commissions/adjustments",
    scope: "admin",
    ok: 201,
    body: () => ({ deal_id: adjusted.dealId, user_id: adjusted.ownerId, amount: -12.5, reason: "clawback" }),
    invalid: { body: { deal_id: "deal_x", user_id: "usr_x", amount: 0, reason: "r" }, param: "amount" },
  },
  {
    method: "GET",
    path: "/api/v1/payouts",
    scope: "read",
    ok: 200,
    invalid: { query: "period=2026-13", param: "period" },
  },
  {
    method: "GET",
    path: "/api/v1/users/statements",
    scope: "read",
    ok: 200,
    query: "period=2026-Q3",
    invalid: { query: "period=2026-13", param: "period" },
  },
  {
    method: "GET",
    path: "/api/v1/users/{id}/periods",
    scope: "read",
    ok: 200,
    record: newUser,
    idPrefix: "usr",
    invalid: { query: "per_page=0", param: "per_page" },
  },
  {
    method: "GET",
    path: "/api/v1/users/{id}/statement",
    scope: "read",
    ok: 200,
    record: newUser,
    idPrefix: "usr",
    query: "period=2026-Q3",
    invalid: { query: "period=2026-13", param: "period" },
  },
  {
    method: "GET",
    path: "/api/v1/commissions.csv",
    scope: "read",
    ok: 200,
    invalid: { query: "kind=bonus", param: "kind" },
  },
  {
    method: "GET",
    path: "/api/v1/users/{id}/statement.csv",
    scope: "read",
    ok: 200,
    record: newUser,
    idPrefix: "usr",
    query: "period=2026-Q3",
    invalid: { query: "period=2026-13", param: "period" },
  },
];

/** The /disputes rows (outside this feature's paths; opening a dispute, POST /deals/{id}/disputes, is above). */
export const DISPUTE_ROUTES: RouteCase[] = [
  {
    method: "GET",
    path: "/api/v1/disputes",
    scope: "read",
    ok: 200,
    invalid: { query: "status=closed", param: "status" },
  },
  {
    method: "GET",
    path: "/api/v1/disputes/{id}",
    scope: "read",
    ok: 200,
    record: newDispute,
    idPrefix: "dsp",
    invalid: { id: longId, param: "id" },
  },
  {
    method: "POST",
    path: "/api/v1/disputes/{id}/resolve",
    scope: "admin",
    ok: 200,
    record: newDispute,
    idPrefix: "dsp",
    body: () => ({ outcome: "denied" }),
    invalid: { body: { outcome: "maybe" }, param: "outcome" },
  },
];
