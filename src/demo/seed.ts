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
import { countDemoStatuses, selectDisputedDeals } from "./repository.js";
import { applyStatuses, type SeedDeal } from "./statuses.js";

/*
 * `cts seed --demo`: 20 reps on 3 tiered plans, a SPIFF and 500 deals over the previous and current
 * quarter, in every status the engine knows. Deterministic (a seeded generator) and idempotent: every
 * record is found by a natural key (email, name, external_id) before it is created.
 */

export interface SeedResult {
  users: number;
  plans: number;
  assignments: number;
  spiffs: number;
  deals: number;
  created: number;
  statuses: Record<DealStatus, number>;
}

const REPS = 20;
const DEALS = 500;

/** mulberry32: the same demo data on every run. */
function generator(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function planBodies(yearStart: string) {
  const base = { effective_from: yearStart, status: "active" };
  return [
    {
      ...base,
      name: "Demo AE quarterly",
      period: "quarter",
      quota: 150000,
      tiers: [
        { from_attainment: 0, rate: 0.08 },
        { from_attainment: 1, rate: 0.12 },
        { from_attainment: 1.5, rate: 0.15 },
      ],
      deal_type_multipliers: { expansion: 1.1, renewal: 0.5 },
      cap_per_period: 60000,
    },
    {
      ...base,
      name: "Demo SMB monthly",
      period: "month",
      quota: 40000,
      tiers: [
        { from_attainment: 0, rate: 0.1 },
        { from_attainment: 1, rate: 0.14 },
      ],
      min_deal_amount: 1000,
    },
    {
      ...base,
      name: "Demo Enterprise yearly",
      period: "year",
      quota: 1200000,
      tiers: [
        { from_attainment: 0, rate: 0.06 },
        { from_attainment: 1, rate: 0.09 },
        { from_attainment: 1.25, rate: 0.12 },
      ],
    },
  ].map((b) => CreatePlanBody.parse(b));
}

async function seedUsers(ctx: Ctx): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 1; i <= REPS; i++) {
    const n = String(i).padStart(2, "0");
    const email = `rep${n}@demo.example`;
    const found = await listUsers(ctx, { email, page: 1, per_page: 1 });
    const user =
      found.data[0] ??
      (await createUser(ctx, CreateUserBody.parse({ name: `Demo Rep ${n}`, email, external_id: `demo-rep-${n}` })));
    ids.push(user.id);
  }
  return ids;
}

async function seedPlans(ctx: Ctx, yearStart: string): Promise<string[]> {
  const existing = (await listPlans(ctx, { page: 1, per_page: 100 })).data;
  const ids: string[] = [];
  for (const body of planBodies(yearStart)) {
    ids.push(existing.find((p) => p.name === body.name)?.id ?? (await createPlan(ctx, body)).id);
  }
  return ids;
}

/** Reps 1–8 on AE, 9–15 on SMB, 16–20 on Enterprise; every fourth rep has a quota override. */
async function seedAssignments(ctx: Ctx, users: string[], plans: string[], yearStart: string): Promise<number> {
  let count = 0;
  for (const [i, user] of users.entries()) {
    const plan = plans[i < 8 ? 0 : i < 15 ? 1 : 2]!;
    const found = await listAssignments(ctx, plan, { user_id: user, page: 1, per_page: 1 });
    if (found.meta.total === 0) {
      const override = i % 4 === 3 ? { quota_override: i < 8 ? 120000 : i < 15 ? 30000 : 900000 } : {};
      await createAssignment(
        ctx,
        plan,
        CreateAssignmentBody.parse({ user_id: user, effective_from: yearStart, ...override }),
      );
    }
    count += 1;
  }
  return count;
}

async function seedSpiff(ctx: Ctx, quarter: { from: string; to: string }): Promise<void> {
  const name = "Demo expansion push";
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

const TYPES = ["new_business", "new_business", "new_business", "expansion", "expansion", "renewal", "other"] as const;

function dayIn(range: { from: string; to: string }, last: string, r: number): string {
  const from = Date.parse(`${range.from}T00:00:00Z`);
  const to = Math.min(Date.parse(`${range.to}T00:00:00Z`), Date.parse(`${last}T00:00:00Z`));
  return new Date(from + Math.floor(r * ((to - from) / 86_400_000 + 1)) * 86_400_000).toISOString().slice(0, 10);
}

function dealBodies(users: string[], quarters: { label: string; from: string; to: string }[], today: string) {
  const next = generator(20_260_701);
  return Array.from({ length: DEALS }, (_, i) => {
    const quarter = quarters[i % 2]!;
    const owner = users[i % REPS]!;
    const partner = users[(i + 1) % REPS]!;
    const split =
      i % 7 === 0
        ? {
            splits: [
              { user_id: owner, percent: 60 },
              { user_id: partner, percent: 40 },
            ],
          }
        : {};
    return {
      external_id: `demo-${quarter.label}-${String(i).padStart(3, "0")}`,
      opportunity_name: `Demo opportunity ${i + 1}`,
      arr_amount: Math.round((2000 + next() * 118000) * 100) / 100,
      deal_type: TYPES[Math.floor(next() * TYPES.length)],
      close_date: dayIn(quarter, today, next()),
      owner_id: owner,
      ...split,
    };
  });
}

/**
 * Older deals are mostly paid, recent ones mostly pending; a few of each other status. A few older paid
 * and approved deals went through a dispute on the way, resolved with each outcome in turn.
 */
function storyOf(index: number, previous: boolean): Pick<SeedDeal, "target" | "resolved"> {
  const r = (index * 37) % 100;
  if (!previous) return { target: r < 20 ? "approved" : r < 26 ? "rejected" : "pending", resolved: null };
  const target = r < 55 ? "paid" : r < 75 ? "approved" : r < 80 ? "disputed" : r < 86 ? "rejected" : "pending";
  const disputedOnce = (target === "paid" && r < 6) || (target === "approved" && r >= 70);
  return { target, resolved: disputedOnce ? OUTCOMES[index % OUTCOMES.length]! : null };
}

const OUTCOMES = ["denied", "approved", "partially_approved"] as const;

function quartersAround(now: Date): { label: string; from: string; to: string }[] {
  const current = quarterOf(now.toISOString().slice(0, 10));
  const range = periodRange(current);
  const before = quarterOf(new Date(Date.parse(`${range.from}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10));
  return [before, current].map((label) => ({ label: label.replace("-", "").toLowerCase(), ...periodRange(label) }));
}

export async function seedDemo(ctx: Ctx): Promise<SeedResult> {
  if (ctx.env === "live") throw new Error("seed --demo refuses to run against CTS_ENV=live");
  const quarters = quartersAround(ctx.now);
  const yearStart = `${quarters[0]!.from.slice(0, 4)}-01-01`;
  const users = await seedUsers(ctx);
  const plans = await seedPlans(ctx, yearStart);
  const assignments = await seedAssignments(ctx, users, plans, yearStart);
  await seedSpiff(ctx, quarters[1]!);
  const bodies = dealBodies(users, quarters, ctx.now.toISOString().slice(0, 10));
  const result = await bulkUpsert(ctx, BulkBody.parse({ deals: bodies }));
  const deals = result.data.map((d, i): SeedDeal => ({ id: d.id, status: d.status, ...storyOf(i, i % 2 === 0) }));
  await applyStatuses(
    ctx,
    deals,
    await selectDisputedDeals(
      ctx.db,
      deals.map((d) => d.id),
    ),
  );
  return {
    users: users.length,
    plans: plans.length,
    assignments,
    spiffs: 1,
    deals: result.data.length,
    created: result.meta.created,
    statuses: await countDemoStatuses(ctx.db),
  };
}
