import { Decimal } from "decimal.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type BucketEntry,
  calculateBucket,
  calculateSpiffLines,
  creditsOf,
  type DealInput,
  type PlanInput,
  type SpiffInput,
  type Tier,
} from "../../src/commissions/engine/index.js";
import {
  cents,
  cmp,
  type Fixed,
  formatMoney,
  formatPercent,
  minus,
  parse,
  plain,
  plus,
  roundCents,
  times,
} from "../../src/money/index.js";
import {
  formatMoney as decimalFormatMoney,
  plain as decimalPlain,
  oracleBucket,
  oracleCredits,
  oracleSpiffLines,
  toCents,
} from "./decimal-oracle.js";

// The engine's scaled integers against decimal.js. An independent clone wide enough to be exact for every
// generated operand checks the arithmetic at any size; the whole engine is checked against the decimal.js
// engine it replaced (precision 40, exact within the ranges validation allows) on inputs at those limits.
const D = Decimal.clone({ precision: 400, rounding: Decimal.ROUND_HALF_UP });
const RUNS = { numRuns: 300 };
const ENGINE_RUNS = { numRuns: 1000 };

/** A decimal text from an integer coefficient and a scale, in plain notation ("-0.0012", "1200"). */
function text(c: bigint, scale: number): string {
  const negative = c < 0n;
  const digits = (negative ? -c : c).toString().padStart(scale + 1, "0");
  const body = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${body}` : body;
}

/** Any decimal: up to 60 digits and 30 decimals, either sign, sometimes with trailing zeros. */
const anyDecimal = fc
  .record({
    c: fc.oneof(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), fc.bigInt({ min: -(10n ** 60n), max: 10n ** 60n })),
    scale: fc.integer({ min: 0, max: 30 }),
    zeros: fc.integer({ min: 0, max: 3 }),
  })
  .map(({ c, scale, zeros }) => text(c * 10n ** BigInt(zeros), scale + zeros));

describe("fixed-point arithmetic equals decimal.js exactly, at any size", () => {
  it("parse → plain, formatMoney and rounding to the cent", () => {
    fc.assert(
      fc.property(anyDecimal, (x) => {
        const f = parse(x);
        expect(plain(f)).toBe(decimalPlain(x));
        expect(formatMoney(f)).toBe(decimalFormatMoney(x));
        expect(cents(roundCents(f))).toBe(toCents(x));
        expect(cents(f)).toBe(toCents(x));
        expect(formatPercent(f)).toBe(`${decimalPlain(new D(x).times(100))}%`);
      }),
      RUNS,
    );
  });

  it("plus, minus, times and comparison", () => {
    fc.assert(
      fc.property(anyDecimal, anyDecimal, (x, y) => {
        const a: Fixed = parse(x);
        const b: Fixed = parse(y);
        expect(plain(plus(a, b))).toBe(decimalPlain(new D(x).plus(y)));
        expect(plain(minus(a, b))).toBe(decimalPlain(new D(x).minus(y)));
        expect(plain(times(a, b))).toBe(decimalPlain(new D(x).times(y)));
        expect(cmp(a, b)).toBe(new D(x).comparedTo(y));
      }),
      RUNS,
    );
  });

  it("numbers and exponent notation parse as decimal.js reads them", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        expect(plain(parse(n))).toBe(decimalPlain(n));
      }),
      RUNS,
    );
    for (const x of ["1e-7", "2.5E+3", ".5", "+1", "-0", "0.000"]) expect(plain(parse(x))).toBe(decimalPlain(x));
    for (const x of ["", "abc", "1.2.3", "NaN", "-", "."]) expect(() => parse(x)).toThrow(RangeError);
  });
});

// ---- the engine at the limits validation allows (API.md §2, commissions/fields.ts) ----

/** A value in units of 10^-places up to `max` units, spelled as the API (shortest) or the database (padded). */
const decimalIn = (maxUnits: bigint, places: number, minUnits = 0n) =>
  fc
    .tuple(
      fc.oneof(fc.bigInt({ min: minUnits, max: 10n ** 8n }), fc.bigInt({ min: minUnits, max: maxUnits })),
      fc.boolean(),
    )
    .map(([units, padded]) => {
      const t = text(units, places);
      return padded ? t : decimalPlain(t);
    });
const MONEY_UNITS = 99_999_999_999_999n; // 999,999,999,999.99
const money = fc.oneof(decimalIn(MONEY_UNITS, 2), decimalIn(10_000n, 2));
// Round rates and factors too, so lines landing exactly on half a cent are common.
const round = fc.constantFrom("0.005", "0.015", "0.05", "0.1", "0.125", "0.5", "1", "1.5", "2.5");
const rate = fc.oneof(decimalIn(10_000_000n, 6), round); // 0–10, 6 decimals
const factor = fc.oneof(decimalIn(1_000_000_000n, 6), round); // 0–1000
const percent = decimalIn(1_000_000n, 4, 1n); // (0, 100], 4 decimals
const DEAL_TYPES = ["new_business", "expansion", "renewal", "other"] as const;

const tiers: fc.Arbitrary<Tier[]> = fc
  .tuple(rate, fc.array(fc.tuple(fc.bigInt({ min: 1n, max: 400_000_000n }), rate), { maxLength: 4 }))
  .map(([first, rest]) => {
    let from = 0n;
    const more = rest.map(([step, r]) => {
      from += step;
      return { from_attainment: decimalPlain(text(from, 6)), rate: r };
    });
    return [{ from_attainment: "0", rate: first }, ...more];
  });

const planArb: fc.Arbitrary<PlanInput> = fc
  .record({
    tiers: fc.option(tiers, { nil: null }),
    base_rate: rate,
    quota: decimalIn(MONEY_UNITS, 2, 1n),
    multipliers: fc.dictionary(fc.constantFrom(...DEAL_TYPES), factor),
    min: fc.option(money, { nil: null }),
    cap: fc.option(money, { nil: null }),
  })
  .map((g) => ({
    id: "plan_p",
    version: 3,
    status: "active" as const,
    currency: "USD",
    period: "quarter" as const,
    quota: g.quota,
    base_rate: g.base_rate,
    tiers: g.tiers,
    deal_type_multipliers: g.multipliers,
    min_deal_amount: g.min,
    cap_per_period: g.cap,
    effective_from: "2026-01-01",
    effective_to: null,
  }));

function deal(i: number, arr: string, dealType: string, pct: string, order: number): DealInput {
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return {
    id: `deal_${pad(i)}`,
    arr_amount: arr,
    currency: "USD",
    deal_type: dealType,
    close_date: `2026-0${7 + (order % 3)}-${pad(1 + (order % 28))}`,
    created_at: `2026-06-01T00:00:00.${pad(order % 1000, 3)}Z`,
    splits: [{ user_id: "usr_a", percent: pct }],
  };
}

const entriesArb = fc.array(
  fc.record({
    arr: money,
    type: fc.constantFrom(...DEAL_TYPES),
    percent,
    order: fc.integer({ min: 0, max: 999 }),
    locked: fc.boolean(),
    lockedAmount: money,
    // #13.18: an entry may carry its own assignment's quota.
    quota: fc.option(decimalIn(MONEY_UNITS, 2, 1n), { nil: undefined }),
  }),
  { minLength: 1, maxLength: 8 },
);

describe("the fixed-point engine equals the decimal.js engine, line for line", () => {
  it("credits: arr_amount × percent / 100", () => {
    fc.assert(
      fc.property(money, fc.array(percent, { minLength: 1, maxLength: 5 }), (arr, ps) => {
        const d = { arr_amount: arr, splits: ps.map((p, i) => ({ user_id: `usr_${i}`, percent: p })) };
        expect(creditsOf(d)).toEqual(oracleCredits(d));
      }),
      ENGINE_RUNS,
    );
  });

  it("plan lines: amounts to the cent and every explanation string, at the validated limits", () => {
    fc.assert(
      fc.property(planArb, entriesArb, (plan, generated) => {
        const entries = generated.map((g, i): BucketEntry => {
          const d = deal(i, g.arr, g.type, g.percent, g.order);
          const credit = oracleCredits(d)[0]!.credit;
          return g.locked
            ? { deal: d, credit, locked: true, lockedAmount: g.lockedAmount }
            : { deal: d, credit, locked: false, ...(g.quota === undefined ? {} : { quota: g.quota }) };
        });
        const input = { plan, quota: plan.quota, period: "2026-Q3", userId: "usr_a", entries };
        expect(calculateBucket(input)).toEqual(oracleBucket(input));
      }),
      ENGINE_RUNS,
    );
  });

  it("lines landing exactly on half a cent round away from zero, as decimal.js rounds them", () => {
    const halves = fc.constantFrom("0.5", "0.05", "0.005", "1.5", "2.5");
    fc.assert(
      fc.property(planArb, halves, fc.array(money, { minLength: 1, maxLength: 4 }), (p, r, arrs) => {
        const plan = { ...p, tiers: null, base_rate: r, min_deal_amount: null };
        const entries = arrs.map(
          (arr, i): BucketEntry => ({ deal: deal(i, arr, "other", "100", i), credit: arr, locked: false }),
        );
        const input = { plan, quota: plan.quota, period: "2026-Q3", userId: "usr_a", entries };
        expect(calculateBucket(input)).toEqual(oracleBucket(input));
      }),
      ENGINE_RUNS,
    );
  });

  it("SPIFF lines: flat and rate payouts, criteria texts", () => {
    const spiffArb = fc
      .record({
        flat: fc.boolean(),
        amount: money,
        rate,
        min: fc.option(money, { nil: null }),
        types: fc.option(fc.subarray([...DEAL_TYPES]), { nil: null }),
        users: fc.option(fc.subarray(["usr_0", "usr_1", "usr_2"]), { nil: null }),
      })
      .map(
        (g): SpiffInput => ({
          id: "spiff_1",
          name: "Push",
          currency: "USD",
          starts_on: "2026-07-01",
          ends_on: "2026-09-30",
          active: true,
          criteria: { min_arr_amount: g.min, deal_types: g.types, user_ids: g.users },
          payout: g.flat ? { type: "flat", amount: g.amount } : { type: "rate", rate: g.rate },
        }),
      );
    fc.assert(
      fc.property(
        money,
        fc.constantFrom(...DEAL_TYPES),
        fc.array(percent, { minLength: 1, maxLength: 3 }),
        fc.array(spiffArb, { minLength: 1, maxLength: 3 }),
        (arr, type, ps, spiffs) => {
          const d = deal(1, arr, type, "100", 14);
          d.splits = ps.map((p, i) => ({ user_id: `usr_${i}`, percent: p }));
          const credits = creditsOf(d);
          expect(calculateSpiffLines(d, credits, spiffs, () => "2026-Q3")).toEqual(
            oracleSpiffLines(d, credits, spiffs, "2026-Q3"),
          );
        },
      ),
      ENGINE_RUNS,
    );
  });
});
