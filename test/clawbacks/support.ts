import type { DealDetail } from "../../src/deals/index.js";
import { createUser } from "../factories.js";
import { type Api, approveAsOwner, assign, createDeal, createPlan, ok } from "../factories-commissions.js";

/** What the clawback tests share: a flat-rate plan with a clawback policy, people on it, approved deals. */

export interface Policy {
  window_days: number;
  percent: number;
  proration: "none" | "unserved_days";
}

export const policyOf = (over: Partial<Policy> = {}): Policy => ({
  window_days: 90,
  percent: 100,
  proration: "none",
  ...over,
});

/** A quarterly plan at `rate` (no tiers) from `from`, with this clawback policy, and `n` people on it. */
export async function peopleOnPlan(
  api: Api,
  clawback: Policy | null,
  n = 1,
  plan: Record<string, unknown> = {},
  from = "2026-01-01",
) {
  const created = await createPlan(api, {
    tiers: null,
    quota: null,
    base_rate: 0.1,
    effective_from: from,
    clawback,
    ...plan,
  });
  const users = [];
  for (let i = 0; i < n; i++) {
    const user = await createUser(api.t);
    await assign(api, created.id, user.id, { effective_from: from });
    users.push(user);
  }
  return { plan: created, users };
}

/** An approved deal (its lines locked). */
export async function approvedDeal(api: Api, ownerId: string, body: Record<string, unknown> = {}) {
  const deal = await createDeal(api, ownerId, body);
  await approveAsOwner(api.t, deal.id);
  return deal;
}

export const clawbacksOf = (deal: DealDetail) =>
  deal.commissions.filter((c) => c.kind === "clawback").map((c) => [c.user_id, c.amount]);

export async function cancel(api: Api, dealId: string, effective_date: string, status = 200) {
  return ok<
    DealDetail & {
      clawback_summary: { user_id: string; plan_id: string | null; currency: string; amount: number; note: string }[];
    }
  >(await api.post(`/deals/${dealId}/cancel`, { reason: "Customer churned", effective_date }), status);
}

export async function refund(api: Api, dealId: string, amount: number, effective_date: string) {
  return ok<{ id: string; amount: number; clawback_line_ids: string[] }>(
    await api.post(`/deals/${dealId}/refunds`, { amount, effective_date, reason: "Seats reduced" }),
    201,
  );
}

export const getDealOf = async (api: Api, id: string) => ok<DealDetail>(await api.get(`/deals/${id}`));
