import { describe, expect, it } from "vitest";
import {
  type BucketEntry,
  calculateBucket,
  conversionFor,
  creditsOf,
  type DealInput,
  findPlan,
  type PlanInput,
  type PlanMatch,
} from "../../src/commissions/engine/index.js";
import { assignment, deal, EUR_USD, GBP_EUR, GBP_USD, plan, rate, USD_JPY } from "./fx-fixtures.js";

// API.md §15 in the pure engine: F1–F3 and conversion through tiers, caps, minimums and locked entries
// (SPIFFs and override lines: fx-spiffs-overrides.test.ts).

/** Rule 1 with conversion on, then the entry the caller builds from the match. */
function entryOf(d: DealInput, p: PlanInput): BucketEntry {
  const match = findPlan("usr_a", d.close_date, d.currency, [assignment(p.id)], [p], d.fx_rates ?? []) as PlanMatch;
  expect(match.plan).toBe(p);
  return { deal: d, credit: creditsOf(d)[0]!.credit, locked: false, fx: match.fx ?? null };
}

const bucket = (p: PlanInput, entries: BucketEntry[]) =>
  calculateBucket({ plan: p, quota: p.quota, period: "2026-Q1", userId: "usr_a", entries });

describe("§15 worked examples, converted credit exact and only the line rounded", () => {
  it("F1: EUR 1,007.00 on a USD plan at 15 %, rate 25/23 → USD 164.18", () => {
    const p = plan();
    const [line] = bucket(p, [entryOf(deal("EUR", "1007.00", { fx_rates: [EUR_USD] }), p)]);
    expect(line!.amount).toBe("164.18");
    expect(line!.explanation.fx).toEqual({
      from: "EUR",
      to: "USD",
      rate: "25/23",
      rate_date: "2026-03-09",
      base: "USD",
      credit_in_deal_currency: "1007",
      credit: "25175/23",
    });
    expect(line!.explanation.credit).toBe("25175/23");
    expect(line!.explanation.unrounded).toBe("15105/92");
    expect(line!.explanation.amount).toBe(164.18);
    expect(line!.explanation.summary).toBe(
      "EUR 1,007.00 at 25/23 (2026-03-09, base USD) = USD 1,094.57 credit; 1,094.57 × 15% = 164.18",
    );
  });

  it("F2 (cross rate): GBP 10,000.00 on a EUR plan at 10 %, rate 92/79 → EUR 1,164.56", () => {
    const p = plan({ id: "pln_eur", currency: "EUR", base_rate: "0.10" });
    const [line] = bucket(p, [entryOf(deal("GBP", "10000.00", { fx_rates: [GBP_EUR] }), p)]);
    expect(line!.amount).toBe("1164.56");
    expect(line!.explanation.fx?.rate).toBe("92/79");
    expect(line!.explanation.credit).toBe("920000/79");
  });

  it("F3: USD 12,345.67 on a JPY plan at 5 % → credit 1867091.229615, JPY 93355 (0 decimals)", () => {
    const p = plan({ id: "pln_jpy", currency: "JPY", base_rate: "0.05" });
    const [line] = bucket(p, [entryOf(deal("USD", "12345.67", { fx_rates: [USD_JPY] }), p)]);
    expect(line!.explanation.fx?.rate).toBe("151.2345");
    expect(line!.explanation.fx?.credit).toBe("1867091.229615");
    expect(line!.explanation.unrounded).toBe("93354.56148075");
    expect(line!.amount).toBe("93355"); // JPY: no decimals (§15 minor units)
    expect(line!.explanation.amount).toBe(93355);
  });
});

describe("converted credits in attainment", () => {
  it("two rates in one bucket cross the quota: slices in units of 1/lcm, exact prior attainment", () => {
    const p = plan({
      quota: "10000",
      base_rate: null,
      tiers: [
        { from_attainment: "0", rate: "0.10" },
        { from_attainment: "1", rate: "0.15" },
      ],
    });
    const eur = deal("EUR", "5000.00", { close_date: "2026-03-10", fx_rates: [EUR_USD] });
    const gbp = deal("GBP", "5000.00", { close_date: "2026-03-11", fx_rates: [GBP_USD] });
    const lines = bucket(p, [entryOf(gbp, p), entryOf(eur, p)]);
    expect(lines.map((l) => [l.deal_id, l.amount])).toEqual([
      [eur.id, "543.48"],
      [gbp.id, "721.11"],
    ]);
    const second = lines[1]!.explanation;
    expect(second.prior_attainment).toBe("125000/23");
    expect(second.credit).toBe("500000/79");
    expect(second.bands).toEqual([
      { from: "0", to: "10000", rate: "0.1", amount: "105000/23", commission: "10500/23" },
      { from: "10000", to: null, rate: "0.15", amount: "3205000/1817", commission: "480750/1817" },
    ]);
    expect(second.unrounded).toBe("1310250/1817");
    expect(second.quota).toBe("10000");
  });

  it("a converted credit hits the cap; an unconverted deal beside it prices as before", () => {
    const p = plan({ base_rate: "0.10", cap_per_period: "500" });
    const usd = deal("USD", "4000.00", { close_date: "2026-03-01", fx_rates: [] });
    const eur = deal("EUR", "2000.00", { fx_rates: [EUR_USD] });
    const lines = bucket(p, [entryOf(usd, p), entryOf(eur, p)]);
    expect(lines.map((l) => l.amount)).toEqual(["400.00", "100.00"]);
    expect(lines[0]!.explanation.fx).toBeUndefined();
    expect(lines[0]!.explanation.credit).toBe("4000");
    expect(lines[1]!.explanation.cap).toEqual({ limit: "500", before: "400", applied: true });
    expect(lines[1]!.explanation.summary).toContain(
      "= 217.39 capped at 100.00 (cap 500.00, 400.00 used before) = 100.00",
    );
  });

  it("min_deal_amount applies to the converted arr_amount; a zeroed credit still counts", () => {
    const p = plan({ base_rate: "0.10", min_deal_amount: "1000" });
    const above = deal("EUR", "950.00", { close_date: "2026-03-10", fx_rates: [EUR_USD] }); // 1,032.61 USD
    const below = deal("EUR", "900.00", { close_date: "2026-03-11", fx_rates: [EUR_USD] }); // 978.26 USD
    const last = deal("USD", "1000.00", { close_date: "2026-03-12", fx_rates: [] });
    const lines = bucket(p, [entryOf(above, p), entryOf(below, p), entryOf(last, p)]);
    expect(lines.map((l) => l.amount)).toEqual(["103.26", "0.00", "100.00"]);
    expect(lines[1]!.explanation.min_deal_amount).toBe("1000");
    expect(lines[1]!.explanation.summary).toContain("deal ARR 978.26 is below the minimum deal amount 1,000.00");
    expect(lines[2]!.explanation.prior_attainment).toBe("46250/23"); // (950 + 900) × 25/23
  });

  it("a locked converted entry counts its converted credit and uses the cap first", () => {
    const p = plan({ base_rate: "0.10", cap_per_period: "300" });
    const old = deal("EUR", "2300.00", { close_date: "2026-03-09", fx_rates: [EUR_USD] });
    const locked: BucketEntry = { ...entryOf(old, p), locked: true, lockedAmount: "250.00" };
    const [line] = bucket(p, [locked, entryOf(deal("USD", "1000.00", { fx_rates: [] }), p)]);
    expect(line!.explanation.prior_attainment).toBe("2500");
    expect(line!.amount).toBe("50.00");
  });
});

describe("no usable rate", () => {
  const p = plan();
  const find = (d: DealInput) => findPlan("usr_a", d.close_date, d.currency, [assignment(p.id)], [p], d.fx_rates);

  it("none given: no plan line, the pair for fx_missing, and the explanation's reason", () => {
    expect(find(deal("EUR", "1007.00", { fx_rates: [] }))).toEqual({
      reason: "no EUR→USD rate within 7 days before 2026-03-10",
      fx_missing: { from: "EUR", to: "USD", close_date: "2026-03-10" },
    });
  });

  it("F4: a rate 8 days old is too old at the default 7, usable under the plan's fx_max_age_days 10", () => {
    const old = rate("EUR", "USD", 25n, 23n, "2026-03-02");
    const d = deal("EUR", "1007.00", { fx_rates: [old] });
    expect(find(d)).toMatchObject({ fx_missing: { from: "EUR", to: "USD" } });
    expect(conversionFor(d, "USD", 8)).toEqual({ fx: old });
    const lenient = plan({ fx_max_age_days: 10 });
    const match = findPlan("usr_a", d.close_date, "EUR", [assignment(p.id)], [lenient], d.fx_rates);
    expect(match).toMatchObject({ fx: old });
  });

  it("the latest rate on or before close_date wins; later dates and other pairs are ignored", () => {
    const later = rate("EUR", "USD", 1n, 1n, "2026-03-11");
    const other = rate("GBP", "USD", 1n, 1n, "2026-03-10");
    const older = rate("EUR", "USD", 10n, 9n, "2026-03-05");
    expect(conversionFor(deal("EUR", "1", { fx_rates: [older, later, other, EUR_USD] }), "USD")).toEqual({
      fx: EUR_USD,
    });
  });

  it("without rates (conversion off) it stays a currency mismatch, as before §15", () => {
    expect(find(deal("EUR", "1007.00"))).toEqual({ reason: "currency mismatch: deal EUR, plan USD" });
  });
});
