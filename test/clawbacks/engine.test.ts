import { describe, expect, it } from "vitest";
import {
  type ClawbackInput,
  type ClawbackPolicy,
  type ClawbackSourceLine,
  computeClawbacks,
  daysBetween,
  versionKey,
} from "../../src/commissions/engine/index.js";

/** The pure clawback computation (API.md §14): the window, the factors and their edges, to the cent. */

const line = (over: Partial<ClawbackSourceLine> & Pick<ClawbackSourceLine, "id" | "amount">): ClawbackSourceLine => ({
  user_id: "usr_a",
  kind: "plan",
  plan_id: "plan_1",
  plan_version: 1,
  status: "approved",
  ...over,
});

function input(
  policy: ClawbackPolicy | null,
  over: Partial<ClawbackInput> & Pick<ClawbackInput, "event">,
  lines: ClawbackSourceLine[] = [line({ id: "com_1", amount: "1200.00" })],
): ClawbackInput {
  return {
    deal: { currency: "USD", close_date: "2026-01-15", arr_amount: "12000", contract_start: null, contract_end: null },
    lines,
    plans: new Map([[versionKey("plan_1", 1), { name: "Core", policy }]]),
    refunds: [],
    ...over,
  };
}

const policy = (over: Partial<ClawbackPolicy> = {}): ClawbackPolicy => ({
  window_days: 90,
  percent: "100",
  proration: "none",
  ...over,
});
const cancel = (effective_date: string) => ({ type: "cancel" as const, effective_date });
const amounts = (i: ClawbackInput) => computeClawbacks(i).lines.map((l) => l.amount);

describe("daysBetween", () => {
  it("counts calendar days across month ends, leap days and DST-free UTC", () => {
    expect(daysBetween("2026-01-15", "2026-04-15")).toBe(90);
    expect(daysBetween("2026-01-15", "2026-04-16")).toBe(91);
    expect(daysBetween("2025-12-20", "2026-05-01")).toBe(132);
    expect(daysBetween("2028-02-28", "2028-03-01")).toBe(2);
    expect(daysBetween("2026-05-01", "2026-04-30")).toBe(-1);
  });
});

describe("window: days(effective − close) ≤ window_days, the boundary inside", () => {
  it("day 90 of a 90-day window claws back; day 91 writes nothing and says why", () => {
    expect(amounts(input(policy(), { event: cancel("2026-04-15") }))).toEqual(["-1200.00"]);
    const outside = computeClawbacks(input(policy(), { event: cancel("2026-04-16") }));
    expect(outside.lines).toEqual([]);
    expect(outside.summary).toEqual([
      {
        user_id: "usr_a",
        plan_id: "plan_1",
        currency: "USD",
        amount: 0,
        note: "outside the 90-day window: effective 91 days after close",
      },
    ]);
  });

  it("the close date itself is day 0", () => {
    expect(amounts(input(policy({ window_days: 1 }), { event: cancel("2026-01-15") }))).toEqual(["-1200.00"]);
  });

  it("a refund counts only the earlier refunds inside the window", () => {
    const event = { type: "refund" as const, effective_date: "2026-02-01", amount: "1000", refund_id: null };
    const refunds = [
      { amount: "2000", effective_date: "2026-05-01" }, // day 106: outside
      { amount: "3000", effective_date: "2026-04-15" }, // day 90: inside
    ];
    const result = computeClawbacks(input(policy(), { event, refunds }));
    expect(result.lines[0]!.explanation.factor).toEqual({
      kind: "refunded",
      numerator: "4000",
      denominator: "12000",
      value: "0.3333333333",
    });
    expect(result.lines[0]!.amount).toBe("-400.00");
  });
});

describe("unserved_days proration (cancel only)", () => {
  const contract = {
    currency: "USD",
    close_date: "2025-12-20",
    arr_amount: "12000",
    contract_start: "2026-01-01",
    contract_end: "2027-01-01",
  };
  const unserved = policy({ window_days: 180, proration: "unserved_days" });

  it("C2: 245 of 365 days → 1,200 × 245/365 = 805.479… → −805.48", () => {
    const result = computeClawbacks(input(unserved, { deal: contract, event: cancel("2026-05-01") }));
    expect(result.lines.map((l) => [l.amount, l.explanation.factor])).toEqual([
      ["-805.48", { kind: "unserved_days", numerator: "245", denominator: "365", value: "0.6712328767" }],
    ]);
    expect(result.lines[0]!.explanation.window).toEqual({
      close_date: "2025-12-20",
      effective_date: "2026-05-01",
      days: 132,
      window_days: 180,
    });
  });

  it("clamps: before the contract starts → the whole term; at or after its end → nothing", () => {
    expect(amounts(input(unserved, { deal: contract, event: cancel("2025-12-25") }))).toEqual(["-1200.00"]);
    const ended = { ...contract, contract_end: "2026-03-01", contract_start: "2025-12-01" };
    const after = computeClawbacks(input(unserved, { deal: ended, event: cancel("2026-03-01") }));
    expect(after.lines).toEqual([]);
    expect(after.summary[0]!.note).toBe("nothing to claw back: the target is 0.00");
  });

  it("no contract dates → the whole amount, explained", () => {
    const result = computeClawbacks(input(unserved, { event: cancel("2026-02-01") }));
    expect(result.lines[0]!.explanation.factor).toEqual({ kind: "full", numerator: "1", denominator: "1", value: "1" });
    expect(result.lines[0]!.explanation.summary).toContain("no contract dates, so the whole amount");
  });

  it("never prorates a refund", () => {
    const event = { type: "refund" as const, effective_date: "2026-05-01", amount: "6000", refund_id: "rfd_1" };
    expect(amounts(input(unserved, { deal: contract, event }))).toEqual(["-600.00"]);
  });
});

describe("E: per user and plan, from non-void plan, SPIFF and override lines", () => {
  const lines = [
    line({ id: "com_p", amount: "900" }),
    line({ id: "com_s", kind: "spiff", plan_id: null, plan_version: null, amount: "100" }),
    line({ id: "com_adj", kind: "adjustment", plan_id: null, plan_version: null, amount: "5000" }),
    line({ id: "com_void", amount: "777", status: "void" }),
    line({ id: "com_b", user_id: "usr_b", kind: "spiff", plan_id: null, plan_version: null, amount: "50" }),
  ];

  it("C4: 50 %, E 1,000.00 (plan 900 + spiff 100): refund 3,000 of 12,000 → −125.00, then cancel → −375.00", () => {
    const half = policy({ percent: "50" });
    const refund = { type: "refund" as const, effective_date: "2026-02-01", amount: "3000", refund_id: "rfd_1" };
    const first = computeClawbacks(input(half, { event: refund }, lines));
    expect(first.lines.map((l) => [l.user_id, l.amount, l.explanation.basis, l.explanation.line_ids])).toEqual([
      ["usr_a", "-125.00", "1000", ["com_p", "com_s"]],
    ]);
    const written = line({ id: "com_c1", kind: "clawback", amount: first.lines[0]!.amount });
    const refunds = [{ amount: "3000", effective_date: "2026-02-01" }];
    const second = computeClawbacks(input(half, { event: cancel("2026-03-01"), refunds }, [...lines, written]));
    expect(second.lines.map((l) => [l.amount, l.explanation.target, l.explanation.already_clawed_back])).toEqual([
      ["-375.00", "500", "125"],
    ]);
    // A SPIFF with no plan line to follow is never clawed back.
    expect(second.summary.find((s) => s.user_id === "usr_b")).toEqual({
      user_id: "usr_b",
      plan_id: null,
      currency: "USD",
      amount: 0,
      note: "nothing earned under a plan on this deal, so nothing is clawed back",
    });
  });

  it("no policy on the clawed version → a 0 row naming the plan", () => {
    expect(computeClawbacks(input(null, { event: cancel("2026-02-01") })).summary).toEqual([
      {
        user_id: "usr_a",
        plan_id: "plan_1",
        currency: "USD",
        amount: 0,
        note: "no clawback policy on plan Core (version 1)",
      },
    ]);
  });

  it("C3: three refunds of a third → −33.33, −33.34, −33.33 (Σ −100.00)", () => {
    const deal = {
      currency: "USD",
      close_date: "2026-01-15",
      arr_amount: "3000",
      contract_start: null,
      contract_end: null,
    };
    const written: ClawbackSourceLine[] = [line({ id: "com_p", amount: "100" })];
    const refunds: { amount: string; effective_date: string }[] = [];
    const got: string[] = [];
    for (let i = 0; i < 3; i++) {
      const event = { type: "refund" as const, effective_date: "2026-02-01", amount: "1000", refund_id: `rfd_${i}` };
      const [out] = computeClawbacks(input(policy(), { deal, event, refunds }, written)).lines;
      got.push(out!.amount);
      written.push(line({ id: `com_c${i}`, kind: "clawback", amount: out!.amount }));
      refunds.push({ amount: "1000", effective_date: "2026-02-01" });
    }
    expect(got).toEqual(["-33.33", "-33.34", "-33.33"]);
  });
});
