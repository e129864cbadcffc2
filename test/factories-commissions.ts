import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import type { AssignmentWritten, CompPlanWritten } from "../src/comp-plans/testing.js";
import type { Scope } from "../src/context.js";
import type { DealDetail } from "../src/deals/index.js";
import { approveDeal, markDealPaid, openDispute, rejectDeal } from "../src/deals/index.js";
import { createUser, unique } from "./factories.js";
import { bearer, type TestApp } from "./harness.js";

/** Factories for comp plans, assignments, SPIFFs and deals (HTTP API), and deal transitions (workflow services). */

type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** An HTTP client for one scope that takes a fresh key before the per-key rate limit (100/min) could bite. */
export class Api {
  private key: string | undefined;
  private used = 0;

  constructor(
    readonly t: TestApp,
    readonly scope: Scope = "admin",
  ) {}

  async request(method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) {
    if (!this.key || this.used >= 90) {
      this.key = (await this.t.key(this.scope)).key;
      this.used = 0;
    }
    this.used += 1;
    return this.t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { ...bearer(this.key), ...headers },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  }

  get = (url: string, headers?: Record<string, string>) => this.request("GET", url, undefined, headers);
  post = (url: string, body: unknown = {}) => this.request("POST", url, body);
  patch = (url: string, body: unknown) => this.request("PATCH", url, body);
  put = (url: string, body: unknown) => this.request("PUT", url, body);
  del = (url: string) => this.request("DELETE", url);
}

/** The parsed body of a response that must have this status. */
export function ok<T = unknown>(res: LightMyRequestResponse, status = 200): T {
  expect(res.statusCode, res.body).toBe(status);
  return status === 204 ? (undefined as T) : res.json();
}

export const TIERS = [
  { from_attainment: 0, rate: 0.1 },
  { from_attainment: 1, rate: 0.15 },
];

export function planBody(overrides: Record<string, unknown> = {}) {
  return {
    name: unique("Plan"),
    period: "quarter",
    effective_from: "2026-01-01",
    quota: 100000,
    tiers: TIERS,
    ...overrides,
  };
}

export async function createPlan(api: Api, overrides: Record<string, unknown> = {}) {
  return ok<CompPlanWritten>(await api.post("/comp-plans", planBody(overrides)), 201);
}

export async function assign(api: Api, planId: string, userId: string, overrides: Record<string, unknown> = {}) {
  return ok<AssignmentWritten>(
    await api.post(`/comp-plans/${planId}/assignments`, {
      user_id: userId,
      effective_from: "2026-01-01",
      ...overrides,
    }),
    201,
  );
}

/** A rep on a (by default tiered, quarterly, 100,000 quota) plan from 2026-01-01. */
export async function repOnPlan(api: Api, planOverrides: Record<string, unknown> = {}) {
  const user = await createUser(api.t);
  const plan = await createPlan(api, planOverrides);
  await assign(api, plan.id, user.id);
  return { user, plan };
}

export function dealBody(ownerId: string, overrides: Record<string, unknown> = {}) {
  return {
    opportunity_name: unique("Deal"),
    arr_amount: 10000,
    close_date: "2026-07-15",
    owner_id: ownerId,
    ...overrides,
  };
}

export async function createDeal(api: Api, ownerId: string, overrides: Record<string, unknown> = {}) {
  return ok<DealDetail>(await api.post("/deals", dealBody(ownerId, overrides)), 201);
}

/** The amounts of a deal's lines as `kind:user:amount`, for compact assertions. */
export function lineAmounts(deal: { commissions: { kind: string; user_id: string; amount: number }[] }) {
  return deal.commissions.map((c) => [c.kind, c.user_id, c.amount]);
}

/*
 * The workflow services, called as the owner (the context the CLI builds), are named here only, so a
 * change to their signatures is fixed in one place.
 */

/** A status a deal reaches through approval; its lines are locked from then on. */
export type LockedStatus = "approved" | "disputed" | "paid";

/** Approves a pending deal, then opens a dispute on it or marks it paid when `status` asks for that. */
export async function approveAsOwner(t: TestApp, dealId: string, status: LockedStatus = "approved"): Promise<void> {
  await approveDeal(t.ownerCtx(), dealId);
  if (status === "disputed") await openDispute(t.ownerCtx(), dealId, { reason: "other" });
  if (status === "paid") await markDealPaid(t.ownerCtx(), dealId);
}

/** Rejects a pending deal: its lines are voided and the later pending deals of its buckets recalculated. */
export async function rejectAsOwner(t: TestApp, dealId: string, reason = "duplicate"): Promise<void> {
  await rejectDeal(t.ownerCtx(), dealId, reason);
}

/** The outbox rows of one type, oldest first, with their data parsed. */
export async function eventsOf(t: TestApp, type: string) {
  const rows = await t.db.db
    .selectFrom("events")
    .select(["id", "data"])
    .where("type", "=", type)
    .orderBy("id")
    .execute();
  return rows.map(
    (r) => r.data as { object: { id: string } & Record<string, unknown>; previous_amount?: number | null },
  );
}

export async function getDeal(api: Api, id: string) {
  return ok<DealDetail>(await api.get(`/deals/${id}`));
}
