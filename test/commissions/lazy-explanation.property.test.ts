import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type BucketEntry,
  calculateBucket,
  type DealInput,
  type PlanInput,
} from "../../src/commissions/engine/index.js";
import { oracleBucket, oracleCredits } from "./decimal-oracle.js";

// The engine writes a plan line's explanation on its first read (commissions/engine/bucket.ts `PlanLine`). What a
// client sees must be byte for byte what the eager engine wrote: the oracle builds every explanation at
// computation time, so the JSON text of both is compared, whatever order and moment the lines are read in.

const cents = (max: number) => fc.integer({ min: 0, max }).map((c) => (c / 100).toFixed(2));
const DEAL_TYPES = ["new_business", "expansion", "renewal", "other"] as const;

const planArb: fc.Arbitrary<PlanInput> = fc
  .record({
    tiered: fc.boolean(),
    rates: fc.array(fc.constantFrom("0.05", "0.08", "0.1", "0.125", "0.15", "0.333333"), {
      minLength: 1,
      maxLength: 3,
    }),
    quota: fc.integer({ min: 1, max: 200_000 }).map((q) => `${q}.00`),
    multiplier: fc.constantFrom("1.25", "0.5", "1", "1.333333"),
    min: fc.option(cents(500_000), { nil: null }),
    cap: fc.option(cents(3_000_000), { nil: null }),
  })
  .map((g) => ({
    id: "plan_lazy",
    version: 2,
    status: "active" as const,
    currency: "USD",
    period: "quarter" as const,
    quota: g.quota,
    base_rate: g.rates[0]!,
    tiers: g.tiered ? g.rates.map((rate, i) => ({ from_attainment: String(i * 0.5), rate })) : null,
    deal_type_multipliers: { expansion: g.multiplier, renewal: "0.5" },
    min_deal_amount: g.min,
    cap_per_period: g.cap,
    effective_from: "2026-01-01",
    effective_to: null,
  }));

// Few dates and few timestamps, so ties on close_date and created_at (broken by id) are common.
const entryArb = fc.record({
  arr: cents(5_000_000),
  type: fc.constantFrom(...DEAL_TYPES),
  percent: fc.constantFrom("100", "60", "40", "33.3333"),
  day: fc.integer({ min: 1, max: 3 }),
  ms: fc.integer({ min: 0, max: 2 }),
  // created_at also without milliseconds: the engine compares those as text, the others as numbers.
  seconds: fc.boolean(),
  locked: fc.boolean(),
  lockedAmount: cents(300_000),
  quota: fc.option(
    fc.integer({ min: 1, max: 200_000 }).map((q) => `${q}.5`),
    { nil: undefined },
  ),
});

type GeneratedEntry = typeof entryArb extends fc.Arbitrary<infer T> ? T : never;

function bucketEntries(generated: GeneratedEntry[]): BucketEntry[] {
  return generated.map((g, i) => {
    const deal: DealInput = {
      id: `deal_${String(1000 - i).padStart(4, "0")}`,
      arr_amount: g.arr,
      currency: "USD",
      deal_type: g.type,
      close_date: `2026-07-0${g.day}`,
      created_at: g.seconds ? `2026-06-01T00:00:0${g.ms}Z` : `2026-06-01T00:00:00.00${g.ms}Z`,
      splits: [{ user_id: "usr_a", percent: g.percent }],
    };
    const credit = oracleCredits(deal)[0]!.credit;
    return g.locked
      ? { deal, credit, locked: true, lockedAmount: g.lockedAmount }
      : { deal, credit, locked: false, ...(g.quota === undefined ? {} : { quota: g.quota }) };
  });
}

describe("lazy plan-line explanations are byte-identical to eager ones", () => {
  it("JSON of every line, read in any order after the whole bucket was computed", () => {
    fc.assert(
      fc.property(
        planArb,
        fc.array(entryArb, { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (plan, generated, readOrder) => {
          const input = {
            plan,
            quota: plan.quota,
            period: "2026-Q3",
            userId: "usr_a",
            entries: bucketEntries(generated),
          };
          const lines = calculateBucket(input);
          const eager = oracleBucket(input);
          expect(lines.map((l) => l.amount)).toEqual(eager.map((l) => l.amount));
          // Read some explanations first, in a shuffled order, then every line whole.
          for (const i of readOrder) if (lines.length > 0) void lines[i % lines.length]!.explanation.summary;
          expect(lines.map((l) => JSON.stringify(l))).toEqual(eager.map((l) => JSON.stringify(l)));
          expect(lines.map((l) => JSON.stringify({ ...l }))).toEqual(eager.map((l) => JSON.stringify(l)));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("a read explanation stays the same object; spreading copies it as a plain value", () => {
    const plan = fc.sample(planArb, { numRuns: 1, seed: 7 })[0]!;
    const entries = bucketEntries(fc.sample(entryArb, { numRuns: 5, seed: 11 }).map((e) => ({ ...e, locked: false })));
    const [line] = calculateBucket({ plan, quota: plan.quota, period: "2026-Q3", userId: "usr_a", entries });
    const first = line!.explanation;
    expect(line!.explanation).toBe(first);
    const copy = { ...line! };
    expect(Object.getOwnPropertyDescriptor(copy, "explanation")).toMatchObject({ value: first, enumerable: true });
    expect(Object.keys(line!)).toEqual([
      "deal_id",
      "user_id",
      "plan_id",
      "plan_version",
      "period",
      "kind",
      "amount",
      "currency",
      "explanation",
    ]);
  });
});
