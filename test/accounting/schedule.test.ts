import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AssetEvent,
  amortizationPeriod,
  assetSchedule,
  type CapitalizedAsset,
  type ScheduleMonth,
  straightLine,
  termMonths,
} from "../../src/accounting/index.js";
import { type Fixed, fx, parse, plain, plus, sign, ZERO } from "../../src/money/index.js";

/** API.md §17's arithmetic: the amortization period and the schedule of one asset, to the minor unit. */

const DEFAULTS = {
  expected_customer_life_months: 60,
  renewal_commission_commensurate: false,
  practical_expedient: true,
};
const text = (rows: ScheduleMonth[], key: keyof Omit<ScheduleMonth, "month">) => rows.map((r) => plain(r[key]));
const sum = (xs: Fixed[]) => xs.reduce((a, b) => plus(a, b), ZERO);
const asset = (amount: string, months: number, start: string, approval = start): CapitalizedAsset => ({
  amount: parse(amount),
  places: 2,
  months,
  start_month: start,
  approval_month: approval,
});

describe("the period: N, and the practical expedient", () => {
  it("whole months from contract_start to contract_end, a part month counting as one", () => {
    expect(termMonths("2026-01-01", "2029-01-01")).toBe(36);
    expect(termMonths("2026-01-15", "2027-01-14")).toBe(12);
    expect(termMonths("2026-01-15", "2027-01-15")).toBe(12);
    expect(termMonths("2026-01-15", "2027-01-16")).toBe(13);
    expect(termMonths("2026-01-31", "2026-02-28")).toBe(1);
  });

  it("A1: no contract dates → the expected life (60); A2: commensurate → the term (36), else the longer (60)", () => {
    expect(amortizationPeriod(null, DEFAULTS)).toEqual({ months: 60, treatment: "capitalized" });
    const a2 = { start: "2026-01-01", end: "2029-01-01" };
    expect(amortizationPeriod(a2, { ...DEFAULTS, renewal_commission_commensurate: true })).toEqual({
      months: 36,
      treatment: "capitalized",
    });
    expect(amortizationPeriod(a2, DEFAULTS)).toEqual({ months: 60, treatment: "capitalized" });
  });

  it("A3: 12 months, commensurate → expensed with the expedient, capitalized without it", () => {
    const twelve = { start: "2026-01-01", end: "2027-01-01" };
    const commensurate = { ...DEFAULTS, renewal_commission_commensurate: true };
    expect(amortizationPeriod(twelve, commensurate)).toEqual({ months: 12, treatment: "expensed" });
    expect(amortizationPeriod(twelve, { ...commensurate, practical_expedient: false })).toEqual({
      months: 12,
      treatment: "capitalized",
    });
  });
});

describe("API.md §17 worked examples", () => {
  it("A1: 1,000.00 over 60 from 2026-01: 16.67 × 59 = 983.53, 2030-12 16.47", () => {
    const rows = assetSchedule(asset("1000", 60, "2026-01"), []);
    expect(rows).toHaveLength(60);
    expect(new Set(text(rows.slice(0, 59), "amortization"))).toEqual(new Set(["16.67"]));
    expect([rows[59]!.month, plain(rows[59]!.amortization), plain(rows[59]!.closing)]).toEqual([
      "2030-12",
      "16.47",
      "0",
    ]);
    expect(plain(rows[0]!.addition)).toBe("1000");
  });

  it("A2: 1,000.00 over 36: 27.78 × 35 = 972.30, 2028-12 27.70; 2026-01…06 amortize 166.68 to 833.32", () => {
    const rows = assetSchedule(asset("1000", 36, "2026-01"), []);
    expect(rows.at(-1)!.month).toBe("2028-12");
    expect(plain(rows.at(-1)!.amortization)).toBe("27.7");
    expect(plain(sum(rows.slice(0, 6).map((r) => r.amortization)))).toBe("166.68");
    expect(plain(rows[5]!.closing)).toBe("833.32");
    // current: the 12 months after June.
    expect(plain(sum(rows.slice(6, 18).map((r) => r.amortization)))).toBe("333.36");
  });

  it("A4: A2 cancelled in 2026-07 with a clawback of 500.00: July 27.78, clawback 500.00, impairment 305.54, 0 left", () => {
    const events: AssetEvent[] = [
      { type: "clawback", month: "2026-07", amount: parse("500") },
      { type: "impairment", month: "2026-07" },
    ];
    const rows = assetSchedule(asset("1000", 36, "2026-01"), events);
    const july = rows.find((r) => r.month === "2026-07")!;
    expect([july.amortization, july.clawback, july.impairment, july.closing].map(plain)).toEqual([
      "27.78",
      "500",
      "305.54",
      "0",
    ]);
    expect(rows.at(-1)!.month).toBe("2026-07");
  });

  it("A5: +120.00 in 2027-01: 666.64 + 120.00 = 786.64 over 24: 32.78 × 23 = 753.94, 2028-12 32.70", () => {
    const rows = assetSchedule(asset("1000", 36, "2026-01"), [
      { type: "adjustment", month: "2027-01", amount: parse("120") },
    ]);
    expect(plain(rows.find((r) => r.month === "2026-12")!.closing)).toBe("666.64");
    const after = rows.filter((r) => r.month >= "2027-01");
    expect(after).toHaveLength(24);
    expect(plain(after[0]!.adjustment)).toBe("120");
    expect(new Set(text(after.slice(0, 23), "amortization"))).toEqual(new Set(["32.78"]));
    expect(plain(sum(after.slice(0, 23).map((r) => r.amortization)))).toBe("753.94");
    expect([after[23]!.month, plain(after[23]!.amortization), plain(after[23]!.closing)]).toEqual([
      "2028-12",
      "32.7",
      "0",
    ]);
  });

  it("A6: 1.00 over 60: 0.02 × 59 would pass it, so 0.01 × 59 = 0.59 and the last 0.41", () => {
    expect(straightLine(parse("1"), 60, 2).map(plain)).toEqual([...Array(59).fill("0.01"), "0.41"]);
    expect(straightLine(parse("-1"), 60, 2).map(plain)).toEqual([...Array(59).fill("-0.01"), "-0.41"]);
  });

  it("A6 catch-up: A2 from 2025-11, approved 2026-01 → January takes 3 × 27.78 = 83.34", () => {
    const rows = assetSchedule(asset("1000", 36, "2025-11", "2026-01"), []);
    expect([rows[0]!.month, plain(rows[0]!.addition), plain(rows[0]!.amortization)]).toEqual([
      "2026-01",
      "1000",
      "83.34",
    ]);
    expect(rows.at(-1)!.month).toBe("2028-10");
  });

  it("an adjustment after the last month is expensed, never on the asset; a clawback's excess reduces expense", () => {
    const late = assetSchedule(asset("100", 13, "2026-01"), [
      { type: "adjustment", month: "2027-06", amount: parse("7") },
    ]);
    const june = late.find((r) => r.month === "2027-06")!;
    expect([june.adjustment, june.expensed, june.closing].map(plain)).toEqual(["0", "7", "0"]);
    const over = assetSchedule(asset("100", 13, "2026-01"), [
      { type: "clawback", month: "2026-12", amount: parse("50") },
    ]);
    const dec = over.find((r) => r.month === "2026-12")!;
    // 100 over 13: 7.69 × 12 = 92.28 by December, 7.72 left: 7.72 taken, 42.28 off expense.
    expect([dec.clawback, dec.clawback_excess, dec.expensed, dec.closing].map(plain)).toEqual([
      "7.72",
      "42.28",
      "0",
      "0",
    ]);
  });
});

/** Random histories of one asset: the schedule closes exactly, month by month and in total. */
describe("properties", () => {
  const month = (i: number) => `${2026 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, "0")}`;
  const history = fc.record({
    amount: fc.integer({ min: 1, max: 100_000_000 }),
    places: fc.constantFrom(0, 2, 3),
    months: fc.integer({ min: 13, max: 240 }),
    startOffset: fc.integer({ min: -6, max: 0 }),
    events: fc.array(
      fc.oneof(
        fc.record({
          type: fc.constant("adjustment" as const),
          at: fc.integer({ min: 0, max: 260 }),
          amount: fc.integer({ min: -50_000, max: 50_000 }),
        }),
        fc.record({
          type: fc.constant("clawback" as const),
          at: fc.integer({ min: 0, max: 260 }),
          amount: fc.integer({ min: 1, max: 100_000_000 }),
        }),
        fc.record({ type: fc.constant("impairment" as const), at: fc.integer({ min: 0, max: 260 }) }),
      ),
      { maxLength: 6 },
    ),
  });

  it("each month closes (opening + addition + adjustment − amortization − clawback − impairment); nothing is left at the end; Σ amortization + clawbacks + impairment = amount + adjustments", () => {
    fc.assert(
      fc.property(history, (h) => {
        const approval = 6;
        const a: CapitalizedAsset = {
          amount: fx(h.amount, h.places),
          places: h.places,
          months: h.months,
          start_month: month(approval + h.startOffset),
          approval_month: month(approval),
        };
        const events: AssetEvent[] = h.events
          .filter((e) => e.type === "impairment" || e.amount !== 0)
          .map((e) =>
            e.type === "impairment"
              ? { type: e.type, month: month(approval + e.at) }
              : { type: e.type, month: month(approval + e.at), amount: fx(e.amount, h.places) },
          );
        const rows = assetSchedule(a, events);
        let opening = ZERO;
        for (const r of rows) {
          const closes = plus(
            plus(plus(opening, r.addition), r.adjustment),
            plus(plus(negate(r.amortization), negate(r.clawback)), negate(r.impairment)),
          );
          expect(plain(r.closing)).toBe(plain(closes));
          // Every amount sits at the currency's minor unit.
          for (const v of [r.amortization, r.clawback, r.impairment, r.adjustment, r.expensed])
            expect(plain(v).split(".")[1]?.length ?? 0).toBeLessThanOrEqual(h.places);
          opening = r.closing;
        }
        const impaired = rows.some(
          (r) => sign(r.impairment) !== 0 || events.some((e) => e.type === "impairment" && e.month === r.month),
        );
        const last = rows.at(-1)!;
        if (impaired || last.month >= month(approval + h.startOffset + h.months - 1))
          expect(plain(last.closing)).toBe("0");
        const out = sum(rows.flatMap((r) => [r.amortization, r.clawback, r.impairment]));
        expect(plain(out)).toBe(plain(plus(a.amount, sum(rows.map((r) => r.adjustment)))));
      }),
      { numRuns: 300 },
    );
  }, 300_000);
});

const negate = (a: Fixed): Fixed => fx(typeof a.c === "number" ? -a.c || 0 : -a.c, a.s);
