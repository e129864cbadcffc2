import { describe, expect, it } from "vitest";
import {
  type AssignmentInput,
  calculateOverrideLines,
  type DealInput,
  type OverrideContext,
  type PlanInput,
  type ReportingLineInput,
} from "../../src/commissions/engine/index.js";

// API.md §16's worked examples on the pure engine: V → M → R1, R2; M [{1, 0.03}]; V [{1, 0.02}, {2, 0.01}].

const plan = (id: string, levels: { depth: number; rate: string }[]): PlanInput => ({
  id,
  version: 1,
  kind: "override",
  status: "active",
  currency: "USD",
  period: "quarter",
  quota: null,
  base_rate: null,
  tiers: null,
  deal_type_multipliers: {},
  min_deal_amount: null,
  cap_per_period: null,
  override_levels: levels,
  effective_from: "2026-01-01",
  effective_to: null,
});

const line = (user_id: string, manager_id: string | null, from = "2025-01-01", to: string | null = null) =>
  ({ user_id, manager_id, effective_from: from, effective_to: to }) satisfies ReportingLineInput;

const assign = (user_id: string, plan_id: string): AssignmentInput => ({
  id: `pa_${user_id}`,
  plan_id,
  user_id,
  effective_from: "2026-01-01",
  effective_to: null,
  quota_override: null,
});

function org(extra: ReportingLineInput[] = []): OverrideContext {
  const lines = [line("M", "V"), line("R2", "M"), ...extra];
  if (!extra.some((l) => l.user_id === "R1")) lines.push(line("R1", "M"));
  const reporting = new Map<string, ReportingLineInput[]>();
  for (const l of lines) reporting.set(l.user_id, [...(reporting.get(l.user_id) ?? []), l]);
  return {
    reporting,
    assignments: new Map([
      ["M", [assign("M", "pln_m")]],
      ["V", [assign("V", "pln_v")]],
      ["M2", [assign("M2", "pln_m")]],
    ]),
    plans: new Map([
      ["pln_m", plan("pln_m", [{ depth: 1, rate: "0.03" }])],
      [
        "pln_v",
        plan("pln_v", [
          { depth: 1, rate: "0.02" },
          { depth: 2, rate: "0.01" },
        ]),
      ],
    ]),
  };
}

const deal = (arr: string, splits: [string, string][], close_date = "2026-02-10"): DealInput => ({
  id: "deal_1",
  arr_amount: arr,
  currency: "USD",
  deal_type: "new_business",
  close_date,
  created_at: "2026-02-10T00:00:00.000Z",
  splits: splits.map(([user_id, percent]) => ({ user_id, percent })),
});

const amounts = (d: DealInput, ctx = org()) =>
  Object.fromEntries(calculateOverrideLines(d, ctx).map((l) => [l.user_id, l.amount]));

describe("override lines (API.md §16 examples)", () => {
  it("O1: R1 alone pays M 3 % and V 1 % at depth 2; a 60/40 split pays on the whole deal", () => {
    expect(amounts(deal("40000.00", [["R1", "100"]]))).toEqual({ M: "1200.00", V: "400.00" });
    expect(
      amounts(
        deal("10000.00", [
          ["R1", "60"],
          ["R2", "40"],
        ]),
      ),
    ).toEqual({ M: "300.00", V: "100.00" });
  });

  it("O2: a manager's own credit never counts toward their override, but counts at depth 1 for V", () => {
    const lines = calculateOverrideLines(
      deal("10000.00", [
        ["M", "40"],
        ["R1", "60"],
      ]),
      org(),
    );
    expect(Object.fromEntries(lines.map((l) => [l.user_id, l.amount]))).toEqual({ M: "180.00", V: "140.00" });
    const v = lines.find((l) => l.user_id === "V")!;
    expect(v.explanation.levels).toEqual([
      { depth: 1, rate: "0.02", users: [{ user_id: "M", credit: "4000" }], credit: "4000", commission: "80" },
      { depth: 2, rate: "0.01", users: [{ user_id: "R1", credit: "6000" }], credit: "6000", commission: "60" },
    ]);
    expect(v.explanation.unrounded).toBe("140");
    expect(v.explanation.amount).toBe(140);
    expect(v.explanation.fx).toBeNull();
    expect(v.period).toBe("2026-Q1");
    expect(v.explanation.summary).toBe("override: depth 1: 4,000.00 × 2% + depth 2: 6,000.00 × 1% = 140.00");
  });

  it("O3: two reps of one manager split 50/50: the manager's depth-1 credit counts the deal once", () => {
    const lines = calculateOverrideLines(
      deal("10000.00", [
        ["R1", "50"],
        ["R2", "50"],
      ]),
      org(),
    );
    const m = lines.find((l) => l.user_id === "M")!;
    expect(m.amount).toBe("300.00");
    expect(m.explanation.levels[0]!.credit).toBe("10000");
  });

  it("O4: R1 moves under M2 on 2026-04-01: a deal on 03-31 pays M (and V), one on 04-01 pays M2", () => {
    const moved = org([line("R1", "M", "2025-01-01", "2026-03-31"), line("R1", "M2", "2026-04-01")]);
    expect(amounts(deal("10000.00", [["R1", "100"]], "2026-03-31"), moved)).toEqual({ M: "300.00", V: "100.00" });
    // M2 reports to nobody: only M2 earns.
    expect(amounts(deal("10000.00", [["R1", "100"]], "2026-04-01"), moved)).toEqual({ M2: "300.00" });
  });

  it("O5: a credited user with no manager on close_date pays nobody (no escalation)", () => {
    expect(amounts(deal("10000.00", [["V", "100"]]))).toEqual({});
    const gap = org([line("R1", "M", "2025-01-01", "2026-01-31"), line("R1", null, "2026-02-01")]);
    expect(amounts(deal("10000.00", [["R1", "100"]]), gap)).toEqual({});
  });

  it("pays nothing under a plan that is not active, not in effect, or in another currency", () => {
    const ctx = org();
    ctx.plans.set("pln_m", { ...ctx.plans.get("pln_m")!, status: "draft" });
    expect(amounts(deal("10000.00", [["R1", "100"]]), ctx)).toEqual({ V: "100.00" });
    expect(amounts(deal("10000.00", [["R1", "100"]], "2025-12-31"))).toEqual({});
    expect(amounts({ ...deal("10000.00", [["R1", "100"]]), currency: "EUR" })).toEqual({});
  });
});
