import { periodRange, quarterOf } from "../commissions/index.js";
import {
  CreateAssignmentBody,
  CreatePlanBody,
  createAssignment,
  createPlan,
  listAssignments,
  listPlans,
} from "../comp-plans/index.js";
import type { Ctx } from "../context.js";
import { BulkBody, bulkUpsert, type DealStatus } from "../deals/index.js";
import { CreateSpiffBody, createSpiff, listSpiffs } from "../spiffs/index.js";
import { CreateUserBody, createUser, listUsers } from "../users/index.js";
import { type DemoPerson, PEOPLE, PLANS, type PlanKey, type Role } from "./cast.js";
import { type DemoRep, demoDeals } from "./deals.js";
import { countDemoStatuses, selectDealsByExternalId, selectDisputedDeals } from "./repository.js";
import { applyStatuses, type SeedDeal } from "./statuses.js";

/*
 * `cts seed --demo`: a sales team (six reps on a monthly, a quarterly and a yearly plan, their manager,
 * finance and an admin), a SPIFF, and the reps' deals over their current period and the ones before,
 * dated from today, in every status the workflow reaches. Deterministic and idempotent: every record is
 * found by a natural key (email, name, external_id) before it is created.
 */

export interface SeedResult {
  users: number;
  plans: number;
  assignments: number;
  spiffs: number;
  deals: number;
  created: number;
  statuses: Record<DealStatus, number>;
  /** Who to sign in as (`cts users invite EMAIL` prints a one-time link). */
  people: { name: string; email: string; role: Role; plan: string | null }[];
}

const emailOf = (p: DemoPerson) => `${p.key}@demo.example`;

async function seedPeople(ctx: Ctx): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const person of PEOPLE) {
    const email = emailOf(person);
    const found = await listUsers(ctx, { email, page: 1, per_page: 1 });
    const body = {
      name: person.name,
      email,
      role: person.role,
      external_id: `demo-${person.key}`,
      ...(person.manager ? { manager_id: ids.get(person.manager)! } : {}),
    };
    ids.set(person.key, (found.data[0] ?? (await createUser(ctx, CreateUserBody.parse(body)))).id);
  }
  return ids;
}

async function seedPlans(ctx: Ctx, since: string): Promise<Map<PlanKey, string>> {
  const existing = (await listPlans(ctx, { page: 1, per_page: 100 })).data;
  const ids = new Map<PlanKey, string>();
  for (const { key, ...plan } of PLANS) {
    const found = existing.find((p) => p.name === plan.name);
    const body = CreatePlanBody.parse({ ...plan, effective_from: since, status: "active" });
    ids.set(key, found?.id ?? (await createPlan(ctx, body)).id);
  }
  return ids;
}

async function seedAssignments(ctx: Ctx, users: Map<string, string>, plans: Map<PlanKey, string>, since: string) {
  let count = 0;
  for (const person of PEOPLE) {
    if (!person.plan) continue;
    const plan = plans.get(person.plan)!;
    const user = users.get(person.key)!;
    const found = await listAssignments(ctx, plan, { user_id: user, page: 1, per_page: 1 });
    if (found.meta.total === 0) {
      const override = person.quota_override === undefined ? {} : { quota_override: person.quota_override };
      await createAssignment(
        ctx,
        plan,
        CreateAssignmentBody.parse({ user_id: user, effective_from: since, ...override }),
      );
    }
    count += 1;
  }
  return count;
}

async function seedSpiff(ctx: Ctx, quarter: { from: string; to: string }): Promise<void> {
  const name = "Expansion push";
  const existing = (await listSpiffs(ctx, { page: 1, per_page: 100 })).data;
  if (existing.some((s) => s.name === name)) return;
  const body = CreateSpiffBody.parse({
    name,
    description: "500 per expansion deal of at least 20,000 ARR this quarter, split by credit.",
    starts_on: quarter.from,
    ends_on: quarter.to,
    criteria: { min_arr_amount: 20000, deal_types: ["expansion"] },
    payout: { type: "flat", amount: 500 },
  });
  await createSpiff(ctx, body);
}

/** The reps as the deal builder needs them: id, plan period, quota in force and attainment history. */
export function demoReps(users: Map<string, string>): DemoRep[] {
  return PEOPLE.flatMap((person) => {
    if (!person.plan) return [];
    const plan = PLANS.find((p) => p.key === person.plan)!;
    return [
      {
        key: person.key,
        id: users.get(person.key)!,
        kind: plan.period,
        quota: person.quota_override ?? plan.quota,
        history: person.history ?? [],
      },
    ];
  });
}

async function seedDeals(ctx: Ctx, reps: DemoRep[], today: string): Promise<{ deals: number; created: number }> {
  const planned = demoDeals(reps, today);
  const externalIds = planned.map((d) => d.body.external_id);
  // Deals already there are left as they are (a locked deal may not change): on a later day the current
  // period's dates would differ.
  const before = await selectDealsByExternalId(ctx.db, externalIds);
  const missing = planned.filter((d) => !before.has(d.body.external_id));
  const created =
    missing.length === 0
      ? 0
      : (await bulkUpsert(ctx, BulkBody.parse({ deals: missing.map((d) => d.body) }))).meta.created;
  const found = await selectDealsByExternalId(ctx.db, externalIds);
  const deals = planned.map((d): SeedDeal => {
    const { id, status } = found.get(d.body.external_id)!;
    return { id, status, target: d.target, resolved: d.resolved };
  });
  await applyStatuses(
    ctx,
    deals,
    await selectDisputedDeals(
      ctx.db,
      deals.map((d) => d.id),
    ),
  );
  return { deals: planned.length, created };
}

export async function seedDemo(ctx: Ctx): Promise<SeedResult> {
  if (ctx.env === "live") throw new Error("seed --demo refuses to run against CTS_ENV=live");
  const today = ctx.now.toISOString().slice(0, 10);
  // The yearly rep's history reaches back to the start of the year three years ago.
  const since = `${Number(today.slice(0, 4)) - 3}-01-01`;
  const users = await seedPeople(ctx);
  const plans = await seedPlans(ctx, since);
  const assignments = await seedAssignments(ctx, users, plans, since);
  await seedSpiff(ctx, periodRange(quarterOf(today)));
  const { deals, created } = await seedDeals(ctx, demoReps(users), today);
  return {
    users: users.size,
    plans: plans.size,
    assignments,
    spiffs: 1,
    deals,
    created,
    statuses: await countDemoStatuses(ctx.db),
    people: PEOPLE.map((p) => ({
      name: p.name,
      email: emailOf(p),
      role: p.role,
      plan: PLANS.find((plan) => plan.key === p.plan)?.name ?? null,
    })),
  };
}
