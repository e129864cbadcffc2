import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { apportionMoney, sumDecimals, sumMoney } from "../../web/src/lib/money.js";
import { overridesByReport } from "../../web/src/pages/home/overrides-by-report.js";

// A manager's home splits their override lines by the report whose credit earned them
// (pages/home/OverridesByReport.tsx): exact to the cent, the rows adding up to the lines.

describe("apportionMoney: an amount split by weights, to the cent, summing to it exactly", () => {
  it.each([
    [10, ["1", "1", "1"], [3.34, 3.33, 3.33]],
    [0.01, ["1", "1"], [0.01, 0]],
    [300, ["180", "120"], [180, 120]],
    [140, ["80", "60"], [80, 60]],
    [100, ["0", "0"], [50, 50]],
    [-10, ["2", "1"], [-6.67, -3.33]],
    [5, ["25175/23", "0"], [5, 0]],
    [1, ["1/3", "2/3"], [0.33, 0.67]],
    [0, ["1.5", "2.25"], [0, 0]],
    [7, [], []],
  ])("apportionMoney(%d, %j) = %j", (amount, weights, parts) => {
    expect(apportionMoney(amount, weights, "USD")).toEqual(parts);
  });

  it("the parts add up to the amount and each is within a cent of its exact share", () => {
    const decimal = fc
      .tuple(fc.nat({ max: 10_000_000 }), fc.nat({ max: 6 }))
      .map(([digits, places]) => (digits / 10 ** places).toFixed(places));
    fc.assert(
      fc.property(
        fc.integer({ min: -10_000_000, max: 10_000_000 }),
        fc.array(decimal, { minLength: 1, maxLength: 8 }),
        (c, weights) => {
          const amount = c / 100;
          const parts = apportionMoney(amount, weights, "USD");
          expect(parts).toHaveLength(weights.length);
          expect(Math.round(sumMoney(parts) * 100)).toBe(c);
          const total = weights.reduce((acc, w) => acc + Number(w), 0);
          for (const [i, part] of parts.entries()) {
            const share = total === 0 ? c / weights.length : (c * Number(weights[i])) / total;
            expect(Math.abs(Math.round(part * 100) - share)).toBeLessThan(1 + 1e-6);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("sumDecimals: exact sums of the API's decimals", () => {
  it.each([
    [["0.1", "0.2"], "0.3"],
    [["6000", "4000.005"], "10000.005"],
    [["1234.5678", "-1234.5678"], "0"],
    [["-0.25", "0.1"], "-0.15"],
    [[], "0"],
    [["99999999999999.999999", "0.000001"], "100000000000000"],
  ])("sumDecimals(%j) = %j", (values, total) => {
    expect(sumDecimals(values)).toBe(total);
  });
});

type Level = {
  depth: number;
  rate: string;
  users: { user_id: string; credit: string }[];
  credit: string;
  commission: string;
};

let n = 0;
const line = (deal: string, amount: number, levels: Level[]) =>
  ({
    id: `com_${++n}`,
    deal_id: deal,
    kind: "override",
    amount,
    currency: "USD",
    explanation: {
      summary: "",
      plan_id: "plan_o",
      plan_version: 1,
      period: "2026-Q2",
      levels,
      fx: null,
      unrounded: "",
      amount,
    },
  }) as never;

describe("overridesByReport: API.md §16's worked examples, by report", () => {
  it("O1 (M): R1 alone, then R1 60 / R2 40: R1 1,380.00 on two deals, R2 120.00 on one", () => {
    const { rows, total } = overridesByReport([
      line("deal_1", 1200, [
        { depth: 1, rate: "0.03", users: [{ user_id: "R1", credit: "40000" }], credit: "40000", commission: "1200" },
      ]),
      line("deal_2", 300, [
        {
          depth: 1,
          rate: "0.03",
          users: [
            { user_id: "R1", credit: "6000" },
            { user_id: "R2", credit: "4000" },
          ],
          credit: "10000",
          commission: "300",
        },
      ]),
    ]);
    expect(rows).toEqual([
      { user_id: "R1", depth: 1, deals: 2, credit: "46000", override: 1380 },
      { user_id: "R2", depth: 1, deals: 1, credit: "4000", override: 120 },
    ]);
    expect(total).toBe(1500);
  });

  it("O2 (V): M at depth 1 and R1 at depth 2 on one deal, each their level's commission", () => {
    const { rows, total } = overridesByReport([
      line("deal_3", 140, [
        { depth: 1, rate: "0.02", users: [{ user_id: "M", credit: "4000" }], credit: "4000", commission: "80" },
        { depth: 2, rate: "0.01", users: [{ user_id: "R1", credit: "6000" }], credit: "6000", commission: "60" },
      ]),
    ]);
    expect(rows).toEqual([
      { user_id: "M", depth: 1, deals: 1, credit: "4000", override: 80 },
      { user_id: "R1", depth: 2, deals: 1, credit: "6000", override: 60 },
    ]);
    expect(total).toBe(140);
  });

  it("a level capped at the deal's amount splits by the credits before the cap; a level nobody reached gets nothing", () => {
    // 100 % credited twice at depth 1 (an owner and a split, say): capped at 1,000.00 × 3.33 % = 33.30.
    const { rows } = overridesByReport([
      line("deal_4", 33.3, [
        {
          depth: 1,
          rate: "0.0333",
          users: [
            { user_id: "A", credit: "1000" },
            { user_id: "B", credit: "500" },
          ],
          credit: "1000",
          commission: "33.3",
        },
        { depth: 2, rate: "0.01", users: [], credit: "0", commission: "0" },
      ]),
    ]);
    expect(rows).toEqual([
      { user_id: "A", depth: 1, deals: 1, credit: "1000", override: 22.2 },
      { user_id: "B", depth: 1, deals: 1, credit: "500", override: 11.1 },
    ]);
  });

  it("thirds: the lines' rounded cents go to the largest remainders, so the rows add up to the lines", () => {
    const thirds = (deal: string) =>
      line(deal, 0.33, [
        {
          depth: 1,
          rate: "0.0333",
          users: ["A", "B", "C"].map((user_id) => ({ user_id, credit: "3.333333" })),
          credit: "9.999999",
          commission: "0.3329999667",
        },
      ]);
    const lines = [thirds("deal_5"), thirds("deal_6"), thirds("deal_7")];
    const { rows, total } = overridesByReport(lines);
    expect(rows.map((r) => [r.user_id, r.deals, r.credit, r.override])).toEqual([
      ["A", 3, "9.999999", 0.33],
      ["B", 3, "9.999999", 0.33],
      ["C", 3, "9.999999", 0.33],
    ]);
    expect(total).toBe(0.99);
  });

  it("other kinds of lines are not overrides", () => {
    const plan = { ...(line("deal_9", 500, []) as object), kind: "plan" } as never;
    expect(overridesByReport([plan])).toEqual({ rows: [], total: 0 });
  });
});
