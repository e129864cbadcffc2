import { describe, expect, it } from "vitest";
import {
  calculateOverrideLines,
  calculateSpiffLines,
  creditsOf,
  type DealInput,
  type FxMissing,
  type ReportingLineInput,
  roundLine,
  type SpiffInput,
} from "../../src/commissions/engine/index.js";
import { fx, parse, ratioText } from "../../src/money/index.js";
import { assignment, deal, EUR_USD, plan } from "./fx-fixtures.js";

// API.md §15: SPIFF and override lines convert like plan lines; the one line rounding and the fraction text.

describe("SPIFFs convert into their currency", () => {
  const spiff = (over: Partial<SpiffInput>): SpiffInput => ({
    id: "spf_1",
    name: "Q1 push",
    currency: "USD",
    starts_on: "2026-01-01",
    ends_on: "2026-12-31",
    active: true,
    criteria: {},
    payout: { type: "rate", rate: "0.02" },
    ...over,
  });
  const lines = (d: DealInput, s: SpiffInput, missing?: FxMissing[]) =>
    calculateSpiffLines(d, creditsOf(d), [s], () => "2026-Q1", missing);

  it("rate × converted credit; min_arr_amount against the converted arr_amount", () => {
    const d = deal("EUR", "1007.00", { fx_rates: [EUR_USD] });
    const [line] = lines(d, spiff({ criteria: { min_arr_amount: "1090" } })); // 1,094.57 USD ≥ 1,090
    expect(line!.amount).toBe("21.89");
    expect(line!.explanation.credit).toBe("25175/23");
    expect(line!.explanation.unrounded).toBe("1007/46");
    expect(line!.explanation.fx?.rate).toBe("25/23");
    expect(line!.explanation.criteria_met).toContain("arr_amount 1,007.00 (1,094.57 USD) ≥ 1,090.00");
    expect(lines(d, spiff({ criteria: { min_arr_amount: "1095" } }))).toEqual([]);
  });

  it("flat needs no rate; a rate or a minimum without one reports the pair", () => {
    const d = deal("EUR", "1007.00", { fx_rates: [], splits: [{ user_id: "usr_a", percent: "40" }] });
    const [flat] = lines(d, spiff({ payout: { type: "flat", amount: "500" } }));
    expect(flat!.amount).toBe("200.00");
    expect(flat!.explanation.fx).toBeUndefined();
    const missing: FxMissing[] = [];
    expect(lines(d, spiff({}), missing)).toEqual([]);
    expect(
      lines(d, spiff({ payout: { type: "flat", amount: "500" }, criteria: { min_arr_amount: "1" } }), missing),
    ).toEqual([]);
    expect(missing).toEqual([{ from: "EUR", to: "USD", close_date: "2026-03-10" }]);
  });

  it("a deal the SPIFF misses for another reason reports no pair; without fx_rates nothing converts", () => {
    const missing: FxMissing[] = [];
    expect(lines(deal("EUR", "1007.00", { fx_rates: [] }), spiff({ active: false }), missing)).toEqual([]);
    expect(missing).toEqual([]);
    expect(lines(deal("EUR", "1007.00"), spiff({}), missing)).toEqual([]);
    expect(missing).toEqual([]);
  });
});

describe("override lines convert into the override plan's currency", () => {
  const overridePlan = plan({
    id: "pln_m",
    kind: "override",
    base_rate: null,
    override_levels: [{ depth: 1, rate: "0.03" }],
  });
  const line = (user_id: string, manager_id: string): ReportingLineInput => ({
    user_id,
    manager_id,
    effective_from: "2025-01-01",
    effective_to: null,
  });
  const ctx = {
    reporting: new Map([["usr_a", [line("usr_a", "usr_m")]]]),
    assignments: new Map([["usr_m", [assignment("pln_m", "usr_m")]]]),
    plans: new Map([["pln_m", overridePlan]]),
  };

  it("each credit converted, the level capped at the converted amount, fx filled", () => {
    const d = deal("EUR", "1007.00", { fx_rates: [EUR_USD] });
    const [o] = calculateOverrideLines(d, ctx);
    expect(o!.amount).toBe("32.84");
    expect(o!.explanation.levels).toEqual([
      {
        depth: 1,
        rate: "0.03",
        users: [{ user_id: "usr_a", credit: "25175/23" }],
        credit: "25175/23",
        commission: "3021/92",
      },
    ]);
    expect(o!.explanation.fx).toEqual({
      from: "EUR",
      to: "USD",
      rate: "25/23",
      rate_date: "2026-03-09",
      base: "USD",
      credit_in_deal_currency: "1007",
      credit: "25175/23",
    });
  });

  it("no usable rate: no line and the pair; the same currency keeps fx null", () => {
    const missing: FxMissing[] = [];
    expect(calculateOverrideLines(deal("EUR", "1007.00", { fx_rates: [] }), ctx, missing)).toEqual([]);
    expect(missing).toEqual([{ from: "EUR", to: "USD", close_date: "2026-03-10" }]);
    expect(calculateOverrideLines(deal("USD", "1000.00"), ctx)[0]!.explanation.fx).toBeNull();
  });
});

describe("roundLine and ratioText", () => {
  it("round half away from zero at the currency's minor unit", () => {
    expect(roundLine(parse("0.125"), "USD", 1n)).toEqual(fx(13, 2));
    expect(roundLine(parse("-0.125"), "USD", 1n)).toEqual(fx(-13, 2));
    expect(roundLine(parse("2.5"), "JPY", 1n)).toEqual(fx(3, 0));
    expect(roundLine(parse("1.0005"), "KWD", 1n)).toEqual(fx(1001, 3));
    expect(roundLine(parse("1"), "USD", 8n)).toEqual(fx(13, 2)); // 0.125
  });

  it("terminating values are decimals, others n/d in lowest terms", () => {
    expect(ratioText(parse("50"), 4n)).toBe("12.5");
    expect(ratioText(parse("2.5"), 30n)).toBe("1/12");
    expect(ratioText(parse("-46"), 23n)).toBe("-2");
    expect(ratioText(parse("0"), 7n)).toBe("0");
  });
});
