import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  amountNumber,
  fixedText,
  formatIn,
  fx,
  minorUnits,
  moneyNumber,
  moneyText,
  parse,
  plain,
  roundMinor,
  roundTo,
  tooManyDecimals,
} from "../../src/money/index.js";

// API.md §15: ISO 4217 minor units, and rounding half away from zero to them.

const ZERO_DECIMALS = "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF".split(" ");
const THREE_DECIMALS = "BHD IQD JOD KWD LYD OMR TND".split(" ");

describe("the minor-unit table (API.md §15)", () => {
  it.each(ZERO_DECIMALS)("%s has 0 decimals", (code) => expect(minorUnits(code)).toBe(0));
  it.each(THREE_DECIMALS)("%s has 3 decimals", (code) => expect(minorUnits(code)).toBe(3));
  it.each(["USD", "EUR", "GBP", "CHF", "CNY", "INR", "MXN", "SEK"])("%s has 2 decimals", (code) =>
    expect(minorUnits(code)).toBe(2),
  );

  it("counts decimals on the exact text: 1000.5 is too many for JPY, 1.2345 for KWD, 1.234 for USD", () => {
    expect(tooManyDecimals("1000.5", "JPY")).toBe(true);
    expect(tooManyDecimals("1000", "JPY")).toBe(false);
    expect(tooManyDecimals("1000.0", "JPY")).toBe(false); // trailing zeros do not count
    expect(tooManyDecimals("1.2345", "KWD")).toBe(true);
    expect(tooManyDecimals("1.234", "KWD")).toBe(false);
    expect(tooManyDecimals("1.234", "USD")).toBe(true);
    expect(tooManyDecimals(1.23, "USD")).toBe(false);
  });
});

describe("rounding and text at a currency's minor unit", () => {
  it("rounds half away from zero: JPY 617.25 → 617, 617.5 → 618, −617.5 → −618; KWD 123.4567 → 123.457", () => {
    expect(moneyText(parse("617.25"), "JPY")).toBe("617");
    expect(moneyText(parse("617.5"), "JPY")).toBe("618");
    expect(moneyText(parse("-617.5"), "JPY")).toBe("-618");
    expect(moneyText(parse("123.4567"), "KWD")).toBe("123.457");
    expect(moneyText(parse("123.4565"), "KWD")).toBe("123.457");
    expect(moneyText(parse("-0.0004"), "KWD")).toBe("0.000");
    expect(moneyText(parse("1234.5"), "USD")).toBe("1234.50");
    expect(moneyText(parse("0.005"), "USD")).toBe("0.01");
  });

  it("writes CSV text at exactly the currency's decimals: 1234.50 USD, 617 JPY, 123.457 KWD, 1.250 BHD", () => {
    expect(moneyText(parse("1234.5"), "USD")).toBe("1234.50");
    expect(moneyText(parse("617"), "JPY")).toBe("617");
    expect(moneyText(parse("123.457"), "KWD")).toBe("123.457");
    expect(moneyText(parse("1.25"), "BHD")).toBe("1.250");
    expect(moneyText(parse("0"), "JPY")).toBe("0");
    expect(moneyText(parse("0"), "OMR")).toBe("0.000");
    expect(fixedText(parse("123456789012345678901.5"), 0)).toBe("123456789012345678902");
    expect(fixedText(parse("-123456789012345678901.0005"), 3)).toBe("-123456789012345678901.001");
  });

  it("keeps JSON numbers as they were: USD 1234.5 stays 1234.5; JPY 617; KWD 123.457", () => {
    expect(moneyNumber(parse("1234.50"), "USD")).toBe(1234.5);
    expect(moneyNumber(parse("617.25"), "JPY")).toBe(617);
    expect(moneyNumber(parse("123.4567"), "KWD")).toBe(123.457);
    expect(amountNumber(parse("1234.500"))).toBe(1234.5);
  });

  it("formats for people with the currency's decimals: 12,345 JPY, 1,234.567 KWD, 10,000.00 USD", () => {
    expect(formatIn(parse("12345"), "JPY")).toBe("12,345");
    expect(formatIn(parse("1234.567"), "KWD")).toBe("1,234.567");
    expect(formatIn(parse("1234.5"), "KWD")).toBe("1,234.500");
    expect(formatIn(parse("10000"), "USD")).toBe("10,000.00");
    expect(formatIn(parse("-617"), "JPY")).toBe("-617");
    // Full precision beyond the minor unit (an unrounded figure in an explanation).
    expect(formatIn(parse("617.25"), "JPY")).toBe("617.25");
  });
});

/** The independent computation: value × 10^places as a BigInt fraction, rounded half away from zero. */
function bigRound(coefficient: bigint, scale: number, places: number): string {
  let digits: bigint;
  if (scale <= places) digits = coefficient * 10n ** BigInt(places - scale);
  else {
    const d = 10n ** BigInt(scale - places);
    const abs = coefficient < 0n ? -coefficient : coefficient;
    const q = abs / d;
    const r = abs % d;
    const rounded = 2n * r >= d ? q + 1n : q;
    digits = coefficient < 0n ? -rounded : rounded;
  }
  const negative = digits < 0n;
  const text = (negative ? -digits : digits).toString().padStart(places + 1, "0");
  const body = places === 0 ? text : `${text.slice(0, -places)}.${text.slice(-places)}`;
  return negative && digits !== 0n ? `-${body}` : body;
}

describe("rounding to minor units equals an independent BigInt computation (property)", () => {
  const amount = fc.record({
    coefficient: fc.oneof(
      fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
      fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
    ),
    scale: fc.integer({ min: 0, max: 12 }),
  });
  const currency = fc.constantFrom("JPY", "KRW", "USD", "EUR", "KWD", "BHD", "OMR", "XOF");

  it("moneyText(round) of c × 10^-s is the BigInt half-away-from-zero rounding, for each currency class", () => {
    fc.assert(
      fc.property(amount, currency, ({ coefficient, scale }, code) => {
        const text = `${coefficient}e-${scale}`;
        const value = parse(text);
        const places = minorUnits(code);
        const expected = bigRound(coefficient, scale, places);
        expect(moneyText(value, code)).toBe(expected);
        // roundMinor is the same value at the currency's scale, never negative zero.
        const rounded = roundMinor(value, code);
        expect(rounded.s).toBe(places);
        expect(plain(rounded)).toBe(plain(parse(expected)));
        expect(Object.is(rounded.c, -0)).toBe(false);
        expect(roundTo(value, places)).toEqual(rounded);
      }),
      { numRuns: 500 },
    );
  });

  it("a value already at the minor unit is unchanged, and its JSON number is the text's", () => {
    fc.assert(
      fc.property(fc.integer({ min: -(10 ** 12), max: 10 ** 12 }), currency, (c, code) => {
        const places = minorUnits(code);
        const value = fx(c, places);
        expect(roundMinor(value, code)).toEqual(value);
        expect(moneyNumber(value, code)).toBe(Number(moneyText(value, code)));
      }),
      { numRuns: 300 },
    );
  });
});
