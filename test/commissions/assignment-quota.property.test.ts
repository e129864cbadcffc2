import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type {
  AssignmentInput,
  BucketEntry,
  DealInput,
  PlanInput,
  PlanLineResult,
} from "../../src/commissions/engine/index.js";
import {
  type BucketKey,
  computeBucket,
  type DesiredLine,
  type EntryRow,
  type PlanContext,
} from "../../src/commissions/testing.js";
import { oracleBucket } from "./decimal-oracle.js";

// #13.18: the quota of a plan line comes from the assignment in force on the deal's close_date (API.md §5
// rules 1 and 4), while prior attainment counts every earlier deal of the same user, plan and period,
// whichever assignment it closed under. Random assignment histories (both orders, overrides on either
// side, gaps, another plan in between) are checked against an oracle that resolves assignments itself
// and prices with decimal.js (decimal-oracle.ts).

const RUNS = { numRuns: 400 };
const USER = "usr_a";
const START = Date.UTC(2025, 10, 1); // 2025-11-01: histories cross three yearly periods
const DAYS = 460;
const dateAt = (day: number) => new Date(START + day * 86_400_000).toISOString().slice(0, 10);
const cents = (min: number, max: number) => fc.integer({ min, max }).map((c) => (c / 100).toFixed(2));

const tieredPlan = (quota: string, cap: string | null): PlanInput => ({
  id: "plan_p",
  version: 2,
  status: "active",
  currency: "USD",
  period: "year",
  quota,
  base_rate: null,
  tiers: [
    { from_attainment: "0", rate: "0.1" },
    { from_attainment: "1", rate: "0.15" },
    { from_attainment: "1.5", rate: "0.2" },
  ],
  deal_type_multipliers: {},
  min_deal_amount: null,
  cap_per_period: cap,
  effective_from: "2025-01-01",
  effective_to: null,
});

/** Another plan a segment of the history may belong to: its deals never count toward plan_p. */
const OTHER_PLAN: PlanInput = {
  ...tieredPlan("50000", null),
  id: "plan_q",
  period: "quarter",
  tiers: null,
  quota: null,
  base_rate: "0.05",
};

/** Consecutive segments [cut_i, cut_{i+1} − 1 − gap]; each on plan_p, plan_q or nothing; the last may stay open. */
const historyArb = fc
  .record({
    cuts: fc.uniqueArray(fc.integer({ min: 1, max: DAYS - 1 }), { minLength: 1, maxLength: 4 }),
    segments: fc.array(
      fc.record({
        plan: fc.constantFrom("plan_p", "plan_p", "plan_q", null),
        override: fc.option(cents(100_00, 200_000_00), { nil: null }),
        gap: fc.integer({ min: 0, max: 10 }),
      }),
      { minLength: 5, maxLength: 5 },
    ),
    openEnd: fc.boolean(),
  })
  .map(({ cuts, segments, openEnd }) => {
    const points = [0, ...cuts.sort((a, b) => a - b), DAYS];
    const history: AssignmentInput[] = [];
    for (let i = 0; i + 1 < points.length; i++) {
      const s = segments[i]!;
      const last = i + 2 === points.length;
      const end = Math.max(points[i]!, points[i + 1]! - 1 - s.gap);
      if (s.plan === null) continue;
      history.push({
        id: `asg_${i}`,
        plan_id: s.plan,
        user_id: USER,
        effective_from: dateAt(points[i]!),
        effective_to: last && openEnd ? null : dateAt(end),
        quota_override: s.plan === "plan_p" ? s.override : null,
      });
    }
    return history;
  })
  .chain((history) => fc.shuffledSubarray(history, { minLength: history.length, maxLength: history.length }));

const dealsArb = fc.array(
  fc.record({
    day: fc.integer({ min: 0, max: DAYS - 1 }),
    arr: cents(0, 30_000_000),
    order: fc.integer({ min: 0, max: 999 }),
    locked: fc.boolean(),
    lockedAmount: cents(0, 500_000),
  }),
  { minLength: 1, maxLength: 12 },
);

// ---- the oracle's own reading of rules 1–2 ----

function inForceOn(history: AssignmentInput[], date: string): AssignmentInput | undefined {
  const matches = history.filter(
    (a) => a.effective_from <= date && (a.effective_to === null || date <= a.effective_to),
  );
  expect(matches.length).toBeLessThanOrEqual(1); // the generator never overlaps
  return matches[0];
}

function periodOn(plan: PlanInput, date: string): string {
  const year = date.slice(0, 4);
  return plan.period === "year" ? year : `${year}-Q${Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1}`;
}

interface Generated {
  deal: DealInput;
  row: EntryRow;
}

type GeneratedDeal = typeof dealsArb extends fc.Arbitrary<(infer T)[]> ? T : never;

function generate(deals: GeneratedDeal[], history: AssignmentInput[], plans: PlanInput[]) {
  return deals.map((g, i): Generated => {
    const deal: DealInput = {
      id: `deal_${String(i).padStart(2, "0")}`,
      arr_amount: g.arr,
      currency: "USD",
      deal_type: "new_business",
      close_date: dateAt(g.day),
      created_at: `2026-01-01T00:00:00.${String(g.order).padStart(3, "0")}Z`,
      splits: [{ user_id: USER, percent: "100" }],
    };
    // A locked deal keeps the line of the plan it was approved under (the assignment then in force).
    const asg = g.locked ? inForceOn(history, deal.close_date) : undefined;
    const plan = asg && plans.find((p) => p.id === asg.plan_id)!;
    const row: EntryRow = {
      deal: { ...deal, status: g.locked ? "approved" : "pending" },
      user_id: USER,
      percent: "100",
      credit: g.arr,
      no_plan_reason: null,
      locked_plan_id: plan ? plan.id : null,
      locked_period: plan ? periodOn(plan, deal.close_date) : null,
      locked_amount: plan ? g.lockedAmount : null,
    };
    return { deal, row };
  });
}

/** Every bucket's lines as the oracle prices them: each pending entry with its own assignment's quota. */
function oracleLines(generated: Generated[], history: AssignmentInput[], plans: PlanInput[]): PlanLineResult[] {
  const buckets = new Map<string, { plan: PlanInput; period: string; entries: BucketEntry[] }>();
  for (const { deal, row } of generated) {
    const asg = inForceOn(history, deal.close_date);
    if (!asg) continue;
    const plan = plans.find((p) => p.id === asg.plan_id)!;
    const period = periodOn(plan, deal.close_date);
    const bucket = buckets.get(`${plan.id}|${period}`) ?? { plan, period, entries: [] };
    buckets.set(`${plan.id}|${period}`, bucket);
    const locked = row.deal.status !== "pending";
    bucket.entries.push(
      locked
        ? { deal, credit: row.credit, locked, lockedAmount: row.locked_amount ?? "0" }
        : { deal, credit: row.credit, locked, quota: asg.quota_override ?? plan.quota },
    );
  }
  return [...buckets.values()].flatMap((b) =>
    // The bucket-level quota is poison: every pending entry must be priced with its own.
    oracleBucket({ plan: b.plan, quota: "0.01", period: b.period, userId: USER, entries: b.entries }),
  );
}

function engineLines(generated: Generated[], history: AssignmentInput[], plans: PlanInput[]): DesiredLine[] {
  const ctx: PlanContext = { assignments: new Map([[USER, history]]), plans: new Map(plans.map((p) => [p.id, p])) };
  const keys = new Map<string, BucketKey>();
  for (const p of plans)
    for (const { deal } of generated) {
      const key = { user_id: USER, plan_id: p.id, period: periodOn(p, deal.close_date) };
      keys.set(`${key.plan_id}|${key.period}`, key);
    }
  const rows = generated.map((g) => g.row);
  return [...keys.values()].flatMap((key) => computeBucket(key, rows, ctx));
}

const byDeal = <T extends { deal_id: string }>(lines: T[]) =>
  [...lines].sort((a, b) => (a.deal_id < b.deal_id ? -1 : 1)).map((l) => ({ ...l }));
const comparable = (lines: (PlanLineResult | DesiredLine)[]) =>
  byDeal(lines).map(({ deal_id, plan_id, period, amount, explanation }) => ({
    deal_id,
    plan_id,
    period,
    amount,
    explanation,
  }));

describe("#13.18 quota of the assignment in force on each deal's close_date", () => {
  it("recalculation's buckets equal the oracle over random assignment histories", () => {
    const args = fc.tuple(cents(1_000_00, 300_000_00), fc.option(cents(0, 50_000_00), { nil: null }));
    fc.assert(
      fc.property(args, historyArb, dealsArb, ([quota, cap], history, deals) => {
        const plans = [tieredPlan(quota, cap), OTHER_PLAN];
        const generated = generate(deals, history, plans);
        expect(comparable(engineLines(generated, history, plans))).toEqual(
          comparable(oracleLines(generated, history, plans)),
        );
      }),
      RUNS,
    );
  });

  it("the worked example: a March deal under the first assignment keeps the plan's 15,000 quota", () => {
    const plan = { ...tieredPlan("15000", null), effective_from: "2026-01-01" };
    const first = {
      id: "asg_1",
      plan_id: plan.id,
      user_id: USER,
      effective_from: "2026-01-01",
      effective_to: "2026-05-19",
      quota_override: null,
    };
    const second = { ...first, id: "asg_2", effective_from: "2026-05-26", effective_to: null, quota_override: "7500" };
    const deal = (id: string, close_date: string, arr: string): EntryRow => ({
      deal: {
        id,
        arr_amount: arr,
        currency: "USD",
        deal_type: "new_business",
        close_date,
        created_at: "2026-06-01T00:00:00.000Z",
        splits: [],
        status: "pending",
      },
      user_id: USER,
      percent: "100",
      credit: arr,
      no_plan_reason: null,
      locked_plan_id: null,
      locked_period: null,
      locked_amount: null,
    });
    const rows = [deal("deal_a", "2026-03-20", "10000"), deal("deal_b", "2026-06-10", "5000")];
    for (const history of [
      [first, second],
      [second, first],
    ]) {
      const ctx: PlanContext = { assignments: new Map([[USER, history]]), plans: new Map([[plan.id, plan]]) };
      const lines = computeBucket({ user_id: USER, plan_id: plan.id, period: "2026" }, rows, ctx);
      expect(lines.map((l) => [l.deal_id, l.amount, l.explanation.quota, l.explanation.prior_attainment])).toEqual([
        ["deal_a", "1000.00", "15000", "0"],
        // 10,000 already booked is past the 7,500 quota (and its 1.5 band at 11,250): 1,250 × 15% + 3,750 × 20%.
        ["deal_b", "937.50", "7500", "10000"],
      ]);
    }
  });
});
