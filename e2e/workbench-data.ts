// Data the workbench specs make for themselves through the admin key: their own reps (outside the
// seeded manager tree, so no seeded page changes), their own plan and deals with distinctive names.
import { asAdmin, type SeededUser } from "./api.js";
import { postPublic } from "./people.js";
import { PASSWORD } from "./seed.js";

let count = 0;

/** A rep with no manager who accepted an invitation (so they can sign in and call the API as themselves). */
export async function ownRep(name: string): Promise<SeededUser> {
  const email = `${name.toLowerCase().replace(/[^a-z]+/g, ".")}.${Date.now()}.${++count}@e2e.example.com`;
  const user = await asAdmin("POST", "/users", { name, email, role: "rep" });
  const invitation = await asAdmin<{ url: string }>("POST", `/users/${user.id}/invitations`);
  const token = new URL(invitation.url).hash.slice(1);
  const accepted = await postPublic("/auth/invitations/accept", { token, password: PASSWORD });
  if (accepted.status !== 200) throw new Error(`accept → ${accepted.status}: ${JSON.stringify(accepted.body)}`);
  return { id: user.id, name, email, role: "rep", password: PASSWORD };
}

/** A flat 10 % quarterly plan (no quota, no tiers) in force from 2020 for these reps. */
export async function ownPlan(name: string, reps: SeededUser[]): Promise<string> {
  const plan = await asAdmin("POST", "/comp-plans", {
    name,
    period: "quarter",
    currency: "USD",
    base_rate: 0.1,
    effective_from: "2020-01-01",
  });
  for (const rep of reps) {
    await asAdmin("POST", `/comp-plans/${plan.id}/assignments`, { user_id: rep.id, effective_from: "2020-01-01" });
  }
  return plan.id;
}

export interface ApiDeal {
  id: string;
  opportunity_name: string;
  currency: string;
  status: string;
  total_commission: number;
  owner_id: string;
  commissions: { id: string; kind: string; amount: number; status: string; user_id: string }[];
}

/** An approved deal of `rep` closed today, as the API answers it after approval. */
export async function approvedDeal(rep: SeededUser, name: string, arr: number): Promise<ApiDeal> {
  const deal = await asAdmin<ApiDeal>("POST", "/deals", {
    opportunity_name: name,
    arr_amount: arr,
    close_date: new Date().toISOString().slice(0, 10),
    owner_id: rep.id,
  });
  return asAdmin<ApiDeal>("POST", `/deals/${deal.id}/approve`);
}

/** Exact money: API amounts (≤ 2 decimals) in whole cents, so a test adds and subtracts them without floats. */
export const cents = (amount: number) => Math.round(amount * 100);
