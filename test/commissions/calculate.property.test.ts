import { Decimal } from "decimal.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type BucketEntry,
  calculateBucket,
  creditsOf,
  type DealInput,
  type PlanInput,
  type PlanLineExplanation,
  type Tier,
} from "../../src/commissions/engine/index.js";

// The test's own decimal: an independent clone, so the engine's config is not what checks it.
const D = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP });
const RUNS = { numRuns: 200 };
const round = (d: Decimal) => d.toDecimalPlaces(2, D.ROUND_HALF_UP);
const sum = (values: Decimal.Value[]) => values.reduce<Decimal>((s, v) => s.plus(v), new D(0));

/**
 * Redo a plan line by hand from its explanation alone (rule 8):
 * Σ bands.commission × multiplier → round half away from zero → 0 below the minimum → min(cap.limit − cap.before).
 */
function recomputeFromExplanation(e: PlanLineExplanation): string {
  const unrounded = sum(e.bands.map((b) => b.commission)).times(e.multiplier);
  let amount = e.min_deal_amount === undefined ? round(unrounded) : new D(0);
  if (e.cap !== null) {
    const room = new D(e.cap.limit).minus(e.cap.before);
    if (amount.gt(room)) amount = D.max(room, 0);
  }
  return amount.toFixed(2);
}

// ---- generators: money as integer cents, rates in millionths, percents in ten-thousandths ----
const cents = (max: number, min = 0) => fc.integer({ min, max }).map((c) => new D(c).dividedBy(100).toFixed(2));
const money = fc.oneof(cents(1_000_000), cents(100_000_000)); // often ≤ 10,000.00, up to 1,000,000.00
const rate = fc.integer({ min: 0, max: 500_000 }).map((n) => new D(n).dividedBy(1_000_000).toFixed());
const factor = fc.integer({ min: 0, max: 3_000_000 }).map((n) => new D(n).dividedBy(1_000_000).toFixed());
const DEAL_TYPES = ["new_business", "expansion", "renewal", "other"] as const;

/** n positive percents with at most 4 decimals summing to exactly 100. */
const percents = fc.uniqueArray(fc.integer({ min: 1, max: 999_999 }), { maxLength: 4 }).map((cuts) => {
  const points = [0, ...cuts.sort((a, b) => a - b), 1_000_000];
  return points.slice(1).map((p, i) => new D(p - points[i]!).dividedBy(10_000).toFixed());
});

/** Ascending tiers, first at 0, from_attainment with up to 6 decimals. */
const tiers: fc.Arbitrary<Tier[]> = fc
  .tuple(rate, fc.array(fc.tuple(fc.integer({ min: 1, max: 1_500_000 }), rate), { maxLength: 3 }))
  .map(([first, rest]) => {
    let from = 0;
    const more = rest.map(([step, r]) => {
      from += step;
      return { from_attainment: new D(from).dividedBy(1_000_000).toFixed(), rate: r };
    });
    return [{ from_attainment: "0", rate: first }, ...more];
  });

interface PlanOptions {
  cap?: boolean;
  extras?: boolean;
}

function planArb({ cap = true, extras = true }: PlanOptions = {}): fc.Arbitrary<PlanInput> {
  return fc
    .record({
      tiered: fc.boolean(),
      tiers,
      base_rate: rate,
      quota: cents(50_000_000, 100),
      multipliers: extras ? fc.dictionary(fc.constantFrom(...DEAL_TYPES), factor) : fc.constant({}),
      min: extras ? fc.option(cents(2_000_000)) : fc.constant(null),
      cap: cap ? fc.option(cents(5_000_000)) : fc.constant(null),
    })
    .map((g) => ({
      id: "plan_p",
      version: 1,
      status: "active" as const,
      currency: "USD",
      period: "quarter" as const,
      quota: g.quota,
      base_rate: g.base_rate,
      tiers: g.tiered ? g.tiers : null,
      deal_type_multipliers: g.multipliers,
      min_deal_amount: g.min,
      cap_per_period: g.cap,
      effective_from: "2026-01-01",
      effective_to: null,
    }));
}

const SIMPLE_PLAN: PlanInput = {
  id: "plan_s",
  version: 1,
  status: "active",
  currency: "USD",
  period: "quarter",
  quota: "100000",
  base_rate: null,
  tiers: null,
  deal_type_multipliers: {},
  min_deal_amount: null,
  cap_per_period: null,
  effective_from: "2026-01-01",
  effective_to: null,
};

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

function makeDeal(id: string, arr: string, dealType: string, order: number, splits = [["usr_a", "100"]]): DealInput {
  return {
    id,
    arr_amount: arr,
    currency: "USD",
    deal_type: dealType,
    close_date: `2026-0${7 + (order % 3)}-${pad(1 + (order % 28))}`,
    created_at: `2026-06-01T00:00:00.${pad(order % 1000, 3)}Z`,
    splits: splits.map(([user_id, percent]) => ({ user_id: user_id!, percent: percent! })),
  };
}

/** 1–8 bucket entries for usr_a with random order keys, deal types, shares and locks. */
const entriesArb = fc
  .array(
    fc.record({
      arr: money,
      type: fc.constantFrom(...DEAL_TYPES),
      order: fc.integer({ min: 0, max: 999 }),
      share: fc.integer({ min: 1, max: 1_000_000 }),
      locked: fc.boolean(),
      lockedAmount: cents(300_000),
    }),
    { minLength: 1, maxLength: 8 },
  )
  .map((gs) =>
    gs.map((g, i): BucketEntry => {
      const percent = new D(g.share).dividedBy(10_000).toFixed();
      const other = new D(100).minus(percent);
      const splits = other.isZero()
        ? [["usr_a", percent]]
        : [
            ["usr_a", percent],
            ["usr_b", other.toFixed()],
          ];
      const deal = makeDeal(`deal_${pad(i)}`, g.arr, g.type, g.order, splits);
      const credit = creditsOf(deal)[0]!.credit;
      return g.locked ? { deal, credit, locked: true, lockedAmount: g.lockedAmount } : { deal, credit, locked: false };
    }),
  );

const bucket = (plan: PlanInput, entries: BucketEntry[]) =>
  calculateBucket({ plan, quota: plan.quota, period: "2026-Q3", userId: "usr_a", entries });

/** The line a single deal of `credit` earns for usr_a after `prior` credit already in the period. */
function lineAfter(plan: PlanInput, deal: DealInput, credit: string, prior: string) {
  const earlier = makeDeal("deal_0", prior, "other", 0);
  const entries: BucketEntry[] = [{ deal: earlier, credit: prior, locked: true, lockedAmount: "0.00" }];
  return bucket(plan, [
    ...entries,
    { deal: { ...deal, id: "deal_1", close_date: "2026-09-30" }, credit, locked: false },
  ])[0]!;
}

describe("properties of the commission engine", () => {
  it("splits divide the credit: Σ credits = arr_amount exactly, and no split line exceeds the unsplit line", () => {
    // Each user's line for credit_i is ≤ the line the whole credit would earn with the same prior and plan
    // (commission is non-decreasing in credit and rounding is monotone, so no 0.01 slack is even needed).
    // With one rate (base_rate, no cap): |Σ split lines − unsplit line| ≤ 0.005 × (splits + 1).
    fc.assert(
      fc.property(planArb({ cap: false }), money, money, percents, fc.boolean(), (plan, arr, prior, ps, flat) => {
        const deal = makeDeal(
          "deal_1",
          arr,
          "expansion",
          1,
          ps.map((p, i) => [`usr_${i}`, p]),
        );
        const credits = creditsOf(deal);
        expect(sum(credits.map((c) => c.credit)).eq(arr)).toBe(true);
        const p = flat ? { ...plan, tiers: null } : plan;
        const whole = new D(lineAfter(p, deal, arr, prior).amount);
        const parts = credits.map((c) => new D(lineAfter(p, deal, c.credit, prior).amount));
        for (const part of parts) expect(part.lte(whole)).toBe(true);
        if (flat)
          expect(
            sum(parts)
              .minus(whole)
              .abs()
              .lte(new D("0.005").times(parts.length + 1)),
          ).toBe(true);
      }),
      RUNS,
    );
  });

  it("a single band equals round(credit × rate), whatever the prior attainment", () => {
    fc.assert(
      fc.property(rate, money, money, fc.boolean(), (r, arr, prior, asTier) => {
        const plan: PlanInput = {
          ...SIMPLE_PLAN,
          base_rate: asTier ? "0.99" : r,
          tiers: asTier ? [{ from_attainment: "0", rate: r }] : null,
        };
        const line = lineAfter(plan, makeDeal("deal_1", arr, "other", 1), arr, prior);
        expect(line.amount).toBe(round(new D(arr).times(r)).toFixed(2));
      }),
      RUNS,
    );
  });

  it("without a cap, the amount is non-decreasing in arr_amount (same prior, plan and deal type)", () => {
    fc.assert(
      fc.property(
        planArb({ cap: false }),
        money,
        money,
        money,
        fc.constantFrom(...DEAL_TYPES),
        (plan, a, b, prior, t) => {
          const [lo, hi] = new D(a).lte(b) ? [a, b] : [b, a];
          const low = lineAfter(plan, makeDeal("deal_1", lo, t, 1), lo, prior);
          const high = lineAfter(plan, makeDeal("deal_1", hi, t, 1), hi, prior);
          expect(new D(low.amount).lte(high.amount)).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it("every line can be recomputed from its explanation (bands, multiplier, minimum, cap)", () => {
    fc.assert(
      fc.property(planArb(), entriesArb, (plan, entries) => {
        const lines = bucket(plan, entries);
        expect(lines).toHaveLength(entries.filter((e) => !e.locked).length);
        for (const line of lines) {
          const e = line.explanation;
          expect(recomputeFromExplanation(e)).toBe(line.amount);
          expect(e.amount).toBe(Number(line.amount));
          expect(sum(e.bands.map((b) => b.amount)).eq(e.credit)).toBe(true);
          for (const b of e.bands) expect(new D(b.amount).times(b.rate).eq(b.commission)).toBe(true);
          expect(
            sum(e.bands.map((b) => b.commission))
              .times(e.multiplier)
              .eq(e.unrounded),
          ).toBe(true);
          expect(JSON.stringify(e)).not.toMatch(/\d[eE][+-]?\d/);
        }
      }),
      RUNS,
    );
  });

  it("the cap holds: with locked amounts within the cap, stored amounts never sum above it and none is negative", () => {
    fc.assert(
      fc.property(planArb(), entriesArb, (plan, entries) => {
        const lines = bucket(plan, entries);
        for (const line of lines) expect(new D(line.amount).gte(0)).toBe(true);
        const locked = sum(entries.map((e) => (e.locked ? (e.lockedAmount ?? 0) : 0)));
        if (plan.cap_per_period === null || locked.gt(plan.cap_per_period)) return;
        expect(locked.plus(sum(lines.map((l) => l.amount))).lte(plan.cap_per_period)).toBe(true);
      }),
      RUNS,
    );
  });

  it("the order entries are passed in does not matter", () => {
    fc.assert(
      fc.property(
        planArb(),
        entriesArb.chain((es) => fc.tuple(fc.constant(es), fc.shuffledSubarray(es, { minLength: es.length }))),
        (plan, [entries, shuffled]) => {
          expect(bucket(plan, shuffled)).toEqual(bucket(plan, entries));
        },
      ),
      RUNS,
    );
  });

  it("a period's lines sum to within n × 0.005 of one single-shot computation over the total credit", () => {
    // Bands are additive, so the lines' unrounded amounts sum exactly to the single shot's; only the
    // per-line rounding (≤ 0.005 each) separates the rounded sum from it.
    fc.assert(
      fc.property(
        planArb({ cap: false, extras: false }),
        fc.array(money, { minLength: 1, maxLength: 10 }),
        (plan, arrs) => {
          const entries = arrs.map((arr, i): BucketEntry => {
            const deal = makeDeal(`deal_${pad(i)}`, arr, "other", i);
            return { deal, credit: arr, locked: false };
          });
          const lines = bucket(plan, entries);
          const total = sum(arrs).toFixed();
          const single = bucket(plan, [
            { deal: makeDeal("deal_all", total, "other", 0), credit: total, locked: false },
          ]);
          const singleUnrounded = new D(single[0]!.explanation.unrounded);
          expect(sum(lines.map((l) => l.explanation.unrounded)).eq(singleUnrounded)).toBe(true);
          const drift = sum(lines.map((l) => l.amount))
            .minus(singleUnrounded)
            .abs();
          expect(drift.lte(new D("0.005").times(lines.length))).toBe(true);
        },
      ),
      RUNS,
    );
  });
});
