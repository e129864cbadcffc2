import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { calculateBucket, type FxRate, type PlanInput } from "../../src/commissions/engine/index.js";
import { RateBook, type RateSet } from "../../src/exchange-rates/index.js";

// §15 from the rate tables to the line: random days of rates under random bases, looked up as the
// recalculation does (RateBook), converting a random credit under a flat-rate plan, equal an independent
// computation in BigInt fractions from the decimal strings themselves, to the minor unit (half away from 0).

const CODES = ["USD", "EUR", "GBP", "JPY", "KWD", "CHF"] as const;
const PLACES: Record<string, number> = { USD: 2, EUR: 2, GBP: 2, JPY: 0, KWD: 3, CHF: 2 };

/** n × 10^-scale as plain decimal text. */
const dec = (n: bigint, scale: number): string => {
  const digits = String(n).padStart(scale + 1, "0");
  return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
};
/** A decimal string as [numerator, denominator]. */
const frac = (text: string): [bigint, bigint] => {
  const [whole, part = ""] = text.split(".");
  return [BigInt(whole! + part), 10n ** BigInt(part.length)];
};

const rateText = fc
  .tuple(fc.bigInt({ min: 1n, max: 99_999_999_999n }), fc.integer({ min: 0, max: 6 }))
  .map(([n, s]) => dec(n, s));

const setArb: fc.Arbitrary<RateSet> = fc
  .record({
    day: fc.integer({ min: 1, max: 9 }),
    base: fc.constantFrom(...CODES),
    rates: fc.dictionary(fc.constantFrom(...CODES), rateText, { minKeys: 1, maxKeys: 5 }),
  })
  .map(({ day, base, rates }) => {
    const own = Object.fromEntries(Object.entries(rates).filter(([code]) => code !== base));
    return { date: `2026-03-0${day}`, base, rates: own };
  });

/** The rate the contract asks for, computed here from the sets alone: latest day, then base to, from, by code. */
function expectedRate(sets: RateSet[], from: string, to: string): [bigint, bigint] | null {
  const unit = (s: RateSet, c: string): [bigint, bigint] | undefined =>
    c === s.base ? [1n, 1n] : s.rates[c] === undefined ? undefined : frac(s.rates[c]!);
  const days = [...new Set(sets.map((s) => s.date))].sort().reverse();
  for (const day of days) {
    const holding = sets.filter((s) => s.date === day && unit(s, from) && unit(s, to));
    const order = (s: RateSet) => (s.base === to ? 0 : s.base === from ? 1 : 2);
    holding.sort((a, b) => order(a) - order(b) || (a.base < b.base ? -1 : 1));
    const set = holding[0];
    if (!set) continue;
    const [tn, td] = unit(set, to)!;
    const [fn, fd] = unit(set, from)!;
    return [tn * fd, td * fn];
  }
  return null;
}

/** num/den rounded half away from zero to `places`, as decimal text. */
function roundText(num: bigint, den: bigint, places: number): string {
  const scaled = num * 10n ** BigInt(places);
  const q = scaled / den;
  const up = (scaled % den) * 2n >= den ? 1n : 0n;
  return dec(q + up, places);
}

describe("§15 rate tables → lookup → line (property)", () => {
  it("every converted line equals the BigInt computation from the decimal strings", () => {
    fc.assert(
      fc.property(
        fc.array(setArb, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(...CODES),
        fc.constantFrom(...CODES),
        fc.bigInt({ min: 1n, max: 10_000_000_000n }),
        fc.integer({ min: 1, max: 300_000 }),
        (given, from, to, creditMinor, ratePpm) => {
          // One set per (date, base), as the table's key makes them.
          const sets = [...new Map(given.map((s) => [`${s.date}|${s.base}`, s])).values()];
          fc.pre(from !== to);
          const found = new RateBook(sets).lookup({ from, to, close_date: "2026-03-10", max_age_days: 31 });
          const expected = expectedRate(sets, from, to);
          expect(found === null).toBe(expected === null);
          if (!found || !expected) return;
          const g = (a: bigint, b: bigint): bigint => (b === 0n ? a : g(b, a % b));
          const k = g(expected[0], expected[1]);
          expect([found.rate.num, found.rate.den]).toEqual([expected[0] / k, expected[1] / k]);

          const credit = dec(creditMinor, PLACES[from]!);
          const rate = dec(BigInt(ratePpm), 6);
          const plan: PlanInput = {
            id: "plan_1",
            version: 1,
            status: "active",
            currency: to,
            period: "quarter",
            quota: null,
            base_rate: rate,
            tiers: null,
            deal_type_multipliers: {},
            min_deal_amount: null,
            cap_per_period: null,
            effective_from: "2026-01-01",
            effective_to: null,
          };
          const fxRate: FxRate = {
            from,
            to,
            num: found.rate.num,
            den: found.rate.den,
            rate_date: found.rate_date,
            base: found.base,
          };
          const deal = {
            id: "deal_1",
            arr_amount: credit,
            currency: from,
            deal_type: "new_business",
            close_date: "2026-03-10",
            created_at: "2026-03-10T00:00:00.000Z",
            splits: [],
          };
          const [line] = calculateBucket({
            plan,
            quota: null,
            period: "2026-Q1",
            userId: "usr_a",
            entries: [{ deal, credit, locked: false, fx: fxRate }],
          });
          // credit × r × rate, from the strings: [c/cd] × [en/ed] × [rn/rd].
          const [cn, cd] = frac(credit);
          const [rn, rd] = frac(rate);
          const want = roundText(cn * expected[0] * rn, cd * expected[1] * rd, PLACES[to]!);
          expect(Number(line!.amount)).toBe(Number(want));
          expect(line!.currency).toBe(to);
        },
      ),
      { numRuns: 400 },
    );
  });
});
