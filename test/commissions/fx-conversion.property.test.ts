import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type BucketEntry,
  calculateBucket,
  type DealInput,
  type FxRate,
  type PlanInput,
} from "../../src/commissions/engine/index.js";
import { add, convertedCredit, oracleConverted, type Rat, ratOf, ZERO } from "./fx-oracle.js";

// §15: buckets mixing deals in the plan's currency with deals converted at random exact rates, under random
// tiers, caps, minimums and multipliers, equal an independent BigInt-fraction computation to the minor unit,
// and attainment is exactly the sum of the unrounded converted credits.

const RUNS = { numRuns: 200 };
const DEAL_TYPES = ["new_business", "renewal"] as const;

/** n × 10^-scale as plain decimal text. */
function dec(n: number | bigint, scale: number): string {
  const digits = String(n).padStart(scale + 1, "0");
  return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));

const rateArb = fc
  .tuple(fc.bigInt({ min: 1n, max: 5_000_000n }), fc.bigInt({ min: 1n, max: 2_000_000n }))
  .map(([num, den]) => {
    const g = gcd(num, den);
    return { num: num / g, den: den / g };
  });

const rates6 = fc.integer({ min: 0, max: 300_000 }).map((n) => dec(n, 6));

const PLACES: Record<string, number> = { USD: 2, JPY: 0, KWD: 3 };

const planArb: fc.Arbitrary<PlanInput> = fc
  .record({
    currency: fc.constantFrom("USD", "JPY", "KWD"),
    tiered: fc.boolean(),
    first: rates6,
    steps: fc.array(fc.tuple(fc.integer({ min: 1, max: 1_500_000 }), rates6), { maxLength: 3 }),
    base: rates6,
    // Money in minor units of the plan's currency: a plan's amounts have its decimals (§15; the API refuses more).
    quota: fc.integer({ min: 100, max: 20_000_000 }),
    cap: fc.option(fc.integer({ min: 0, max: 3_000_000 })),
    min: fc.option(fc.integer({ min: 0, max: 1_000_000 })),
    renewal: fc.option(fc.integer({ min: 0, max: 2_000_000 }).map((n) => dec(n, 6))),
  })
  .map((g) => {
    let from = 0;
    const tiers = [
      { from_attainment: "0", rate: g.first },
      ...g.steps.map(([step, rate]) => {
        from += step;
        return { from_attainment: dec(from, 6), rate };
      }),
    ];
    const places = PLACES[g.currency]!;
    const money = (n: number | null) => (n === null ? null : dec(n, places));
    return {
      id: "pln_p",
      version: 1,
      status: "active" as const,
      currency: g.currency,
      period: "quarter" as const,
      quota: money(g.quota),
      base_rate: g.base,
      tiers: g.tiered ? tiers : null,
      deal_type_multipliers: g.renewal === null ? {} : ({ renewal: g.renewal } as Record<string, string>),
      min_deal_amount: money(g.min),
      cap_per_period: money(g.cap),
      effective_from: "2026-01-01",
      effective_to: null,
    };
  });

const entryArb = fc.record({
  arr: fc.integer({ min: 0, max: 500_000_000 }),
  share: fc.integer({ min: 1, max: 1_000_000 }), // percent × 10^4
  converted: fc.boolean(),
  rate: rateArb,
  day: fc.integer({ min: 1, max: 28 }),
  type: fc.constantFrom(...DEAL_TYPES),
  locked: fc.boolean(),
  lockedAmount: fc.integer({ min: 0, max: 200_000 }), // in minor units of the plan's currency
});

type EntryGen = typeof entryArb extends fc.Arbitrary<infer T> ? T : never;

function entriesFor(plan: PlanInput, gs: EntryGen[]): BucketEntry[] {
  return gs.map((g, i) => {
    const currency = g.converted ? "EUR" : plan.currency;
    const places = PLACES[currency] ?? 2; // a deal's amount has its currency's decimals
    const fx: FxRate | null = g.converted
      ? { from: "EUR", to: plan.currency, ...g.rate, rate_date: "2026-02-01", base: "USD" }
      : null;
    const deal: DealInput = {
      id: `deal_${String(i).padStart(2, "0")}`,
      arr_amount: dec(g.arr, places),
      currency,
      deal_type: g.type,
      close_date: `2026-02-${String(g.day).padStart(2, "0")}`,
      created_at: `2026-02-01T00:00:00.${String(i).padStart(3, "0")}Z`,
      splits: [{ user_id: "usr_a", percent: dec(g.share, 4) }],
    };
    const credit = dec(BigInt(g.arr) * BigInt(g.share), places + 6); // arr × percent / 100
    return g.locked
      ? { deal, credit, locked: true, lockedAmount: dec(g.lockedAmount, PLACES[plan.currency]!), fx }
      : { deal, credit, locked: false, fx };
  });
}

const at = (text: string): Rat => ratOf(text);

describe("§15 conversion in the engine (property)", () => {
  it("line amounts equal an independent BigInt fraction computation; attainment = Σ unrounded converted credits", () => {
    fc.assert(
      fc.property(planArb, fc.array(entryArb, { minLength: 1, maxLength: 8 }), (plan, gs) => {
        // At least one converted credit, so the bucket is a converted one.
        const entries = entriesFor(
          plan,
          gs.some((g) => g.converted) ? gs : [{ ...gs[0]!, converted: true }, ...gs.slice(1)],
        );
        const last: BucketEntry = {
          deal: {
            ...entries[0]!.deal,
            id: "deal_zz",
            currency: plan.currency,
            close_date: "2026-03-31",
            arr_amount: "0",
          },
          credit: "0",
          locked: false,
        };
        const lines = calculateBucket({
          plan,
          quota: plan.quota,
          period: "2026-Q1",
          userId: "usr_a",
          entries: [...entries, last],
        });
        const expected = oracleConverted(plan, [...entries, last]);
        expect(lines.map((l) => l.deal_id)).toEqual(expected.map((l) => l.deal_id));
        for (let k = 0; k < lines.length; k++) {
          const line = lines[k]!;
          const want = expected[k]!;
          expect(at(line.amount)).toEqual(want.amount);
          expect(line.explanation.amount).toBe(Number(line.amount));
          expect(at(line.explanation.prior_attainment)).toEqual(want.prior);
          expect(at(line.explanation.credit)).toEqual(want.credit);
          if (line.explanation.fx) expect(line.explanation.fx.credit).toBe(line.explanation.credit);
        }
        // The sentinel closes after every entry: its prior attainment is Σ of the unrounded converted credits.
        const total = entries.reduce((sum, e) => add(sum, convertedCredit(e)), ZERO);
        const sentinel = lines[lines.length - 1]!;
        expect(sentinel.deal_id).toBe("deal_zz");
        expect(at(sentinel.explanation.prior_attainment)).toEqual(total);
      }),
      RUNS,
    );
  });
});
