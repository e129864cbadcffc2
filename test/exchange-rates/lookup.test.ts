import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fractionText, RateBook, type RateSet } from "../../src/exchange-rates/index.js";
import { normalizeRate, rateProblem } from "../../src/exchange-rates/testing.js";

// API.md §15 "Conversion": the rate of the latest usable date, through a common base, as an exact fraction.

const usd = (date: string, rates: Record<string, string>): RateSet => ({ date, base: "USD", rates });
const rateOf = (book: RateBook, from: string, to: string, close_date: string, max_age_days = 7) => {
  const found = book.lookup({ from, to, close_date, max_age_days });
  return found && { rate: fractionText(found.rate), rate_date: found.rate_date, base: found.base };
};

describe("the rate lookup (API.md §15)", () => {
  it("F1: base USD {EUR: 0.92} → EUR→USD 25/23, USD→EUR 23/25", () => {
    const book = new RateBook([usd("2026-03-09", { EUR: "0.92" })]);
    expect(rateOf(book, "EUR", "USD", "2026-03-10")).toEqual({ rate: "25/23", rate_date: "2026-03-09", base: "USD" });
    expect(rateOf(book, "USD", "EUR", "2026-03-10")).toEqual({ rate: "23/25", rate_date: "2026-03-09", base: "USD" });
  });

  it("F2: a cross rate through the base: GBP→EUR 92/79", () => {
    const book = new RateBook([usd("2026-03-09", { EUR: "0.92", GBP: "0.79" })]);
    expect(rateOf(book, "GBP", "EUR", "2026-03-09")).toEqual({ rate: "92/79", rate_date: "2026-03-09", base: "USD" });
  });

  it("F3: USD→JPY 151.2345 → 302469/2000 in lowest terms", () => {
    const book = new RateBook([usd("2026-03-09", { JPY: "151.2345" })]);
    // 1512345/10000 reduced by 5.
    expect(rateOf(book, "USD", "JPY", "2026-03-09")?.rate).toBe("302469/2000");
    expect(rateOf(book, "JPY", "USD", "2026-03-09")?.rate).toBe("2000/302469");
  });

  it("F4: 8 days before close_date is too old at 7, usable at 8; a rate after close_date never counts", () => {
    const book = new RateBook([usd("2026-03-02", { EUR: "0.92" }), usd("2026-03-11", { EUR: "0.5" })]);
    expect(rateOf(book, "EUR", "USD", "2026-03-10", 7)).toBeNull();
    expect(rateOf(book, "EUR", "USD", "2026-03-10", 8)).toMatchObject({ rate: "25/23", rate_date: "2026-03-02" });
    expect(rateOf(book, "EUR", "USD", "2026-03-02", 0)).toMatchObject({ rate_date: "2026-03-02" });
    expect(rateOf(book, "EUR", "USD", "2026-03-01", 31)).toBeNull();
  });

  it("a Sunday close date takes Friday's rate; a later day without the pair is skipped", () => {
    const book = new RateBook([
      usd("2026-03-06", { EUR: "0.92" }),
      usd("2026-03-07", { GBP: "0.79" }),
      usd("2026-03-09", { EUR: "0.95" }),
    ]);
    expect(rateOf(book, "EUR", "USD", "2026-03-08")).toEqual({ rate: "25/23", rate_date: "2026-03-06", base: "USD" });
  });

  it("several bases on one day: the plan's currency (to), then the deal's (from), then by code", () => {
    const day = "2026-03-09";
    const sets: RateSet[] = [
      { date: day, base: "CHF", rates: { EUR: "1.1", USD: "1.2" } },
      { date: day, base: "AUD", rates: { EUR: "0.6", USD: "0.65" } },
      { date: day, base: "EUR", rates: { USD: "1.08" } },
      { date: day, base: "USD", rates: { EUR: "0.92" } },
    ];
    expect(rateOf(new RateBook(sets), "EUR", "USD", day)).toEqual({ rate: "25/23", rate_date: day, base: "USD" });
    expect(rateOf(new RateBook(sets.slice(0, 3)), "EUR", "USD", day)).toEqual({
      rate: "27/25",
      rate_date: day,
      base: "EUR",
    });
    expect(rateOf(new RateBook(sets.slice(0, 2)), "EUR", "USD", day)).toEqual({
      rate: "13/12",
      rate_date: day,
      base: "AUD",
    });
  });

  it("the newest usable date wins over base preference on an older date", () => {
    const book = new RateBook([
      usd("2026-03-08", { EUR: "0.92" }),
      { date: "2026-03-09", base: "CHF", rates: { EUR: "1", USD: "2" } },
    ]);
    expect(rateOf(book, "EUR", "USD", "2026-03-10")).toEqual({ rate: "2", rate_date: "2026-03-09", base: "CHF" });
  });

  it("no set holding both → null; the same currency → 1", () => {
    const book = new RateBook([usd("2026-03-09", { EUR: "0.92" })]);
    expect(rateOf(book, "EUR", "GBP", "2026-03-09")).toBeNull();
    expect(rateOf(book, "EUR", "EUR", "2026-03-09")?.rate).toBe("1");
  });

  it("property: rate(a→b) × rate(b→a) = 1 and a cross rate equals r_to/r_from in BigInt", () => {
    const rate = fc
      .tuple(fc.bigInt({ min: 1n, max: 999_999_999_999n }), fc.integer({ min: 0, max: 10 }))
      .map(([units, places]) => {
        const s = units.toString().padStart(places + 1, "0");
        return places === 0 ? s : `${s.slice(0, -places)}.${s.slice(-places)}`;
      });
    fc.assert(
      fc.property(rate, rate, (a, b) => {
        const book = new RateBook([usd("2026-01-01", { EUR: a, GBP: b })]);
        const there = book.lookup({ from: "EUR", to: "GBP", close_date: "2026-01-01", max_age_days: 0 })!;
        const back = book.lookup({ from: "GBP", to: "EUR", close_date: "2026-01-01", max_age_days: 0 })!;
        expect(there.rate.num * back.rate.num).toBe(there.rate.den * back.rate.den);
        const [ai = "", af = ""] = a.split(".");
        const [bi = "", bf = ""] = b.split(".");
        // b / a = (B / 10^bf) / (A / 10^af) = B·10^af / (A·10^bf)
        const num = BigInt(bi + bf) * 10n ** BigInt(af.length);
        const den = BigInt(ai + af) * 10n ** BigInt(bf.length);
        expect(there.rate.num * den).toBe(num * there.rate.den);
      }),
    );
  });
});

describe("rate texts", () => {
  it.each([
    ["0.920", "0.92"],
    ["007", "7"],
    ["1.0000000000", "1"],
    ["000.5", "0.5"],
    ["151.2345", "151.2345"],
  ])("%s is kept as %s", (given, kept) => expect(normalizeRate(given)).toBe(kept));

  it.each([
    ["0", "must be greater than 0"],
    ["0.0000000000", "must be greater than 0"],
    ["1.12345678901", "decimal string"],
    ["1234567890123", "decimal string"],
    ["-1", "decimal string"],
    ["1e3", "decimal string"],
    [".5", "decimal string"],
    ["5.", "decimal string"],
    [" 1", "decimal string"],
  ])("%s is refused (%s)", (given, message) => expect(rateProblem(given)).toContain(message));
});
