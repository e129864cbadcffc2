import { describe, expect, it } from "vitest";
import {
  type AssignmentInput,
  type BucketEntry,
  calculateBucket,
  calculateSpiffLines,
  compareDealOrder,
  creditsOf,
  type DealInput,
  findPlan,
  noPlanExplanation,
  type PlanInput,
  periodOf,
  periodRange,
  quarterOf,
  type SpiffInput,
} from "../../src/commissions/engine/index.js";
import * as money from "../../src/money/index.js";

// The money module's text helpers, read from decimal text as the services call them.
const toCents = (value: string) => money.cents(money.parse(value));
const formatMoney = (value: string) => money.formatMoney(money.parse(value));
const formatPercent = (rate: string) => money.formatPercent(money.parse(rate));

const TIERS = [
  { from_attainment: "0", rate: "0.10" },
  { from_attainment: "1.0", rate: "0.15" },
];

function plan(over: Partial<PlanInput> = {}): PlanInput {
  return {
    id: "plan_1",
    version: 1,
    status: "active",
    currency: "USD",
    period: "quarter",
    quota: "100000",
    base_rate: null,
    tiers: TIERS,
    deal_type_multipliers: {},
    min_deal_amount: null,
    cap_per_period: null,
    effective_from: "2026-01-01",
    effective_to: null,
    ...over,
  };
}

const basePlan = (rate: string, over: Partial<PlanInput> = {}) =>
  plan({ tiers: null, quota: null, base_rate: rate, ...over });

function deal(id: string, arr: string, over: Partial<DealInput> = {}): DealInput {
  return {
    id,
    arr_amount: arr,
    currency: "USD",
    deal_type: "new_business",
    close_date: "2026-07-15",
    created_at: "2026-07-15T10:00:00.000Z",
    splits: [{ user_id: "usr_a", percent: "100" }],
    ...over,
  };
}

function entry(d: DealInput, over: Partial<BucketEntry> = {}, userId = "usr_a"): BucketEntry {
  const credit = creditsOf(d).find((c) => c.user_id === userId);
  if (!credit) throw new Error(`${userId} has no credit on ${d.id}`);
  return { deal: d, credit: credit.credit, locked: false, ...over };
}

function run(p: PlanInput, entries: BucketEntry[], userId = "usr_a", quota = p.quota) {
  return calculateBucket({ plan: p, quota, period: "2026-Q3", userId, entries });
}

const amounts = (lines: { deal_id: string; amount: string }[]) => lines.map((l) => [l.deal_id, l.amount]);

describe("worked examples: plan lines", () => {
  it("API.md §5: prior 90,000, a 30,000 deal across quota earns 4,000.00", () => {
    const earlier = deal("deal_1", "90000", { close_date: "2026-07-01" });
    const lines = run(plan(), [
      entry(earlier, { locked: true, lockedAmount: "9000.00" }),
      entry(deal("deal_2", "30000")),
    ]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toEqual({
      deal_id: "deal_2",
      user_id: "usr_a",
      plan_id: "plan_1",
      plan_version: 1,
      period: "2026-Q3",
      kind: "plan",
      amount: "4000.00",
      currency: "USD",
      explanation: {
        summary: "10,000.00 × 10% + 20,000.00 × 15% = 4,000.00",
        plan_id: "plan_1",
        plan_version: 1,
        period: "2026-Q3",
        quota: "100000",
        credit: "30000",
        prior_attainment: "90000",
        bands: [
          { from: "0", to: "100000", rate: "0.1", amount: "10000", commission: "1000" },
          { from: "100000", to: null, rate: "0.15", amount: "20000", commission: "3000" },
        ],
        multiplier: "1",
        cap: null,
        unrounded: "4000",
        amount: 4000,
      },
    });
  });

  it("a deal spanning three bands earns each band's rate on its slice", () => {
    const p = plan({ tiers: [...TIERS, { from_attainment: "1.5", rate: "0.2" }] });
    const lines = run(p, [
      entry(deal("deal_1", "50000", { close_date: "2026-07-01" })),
      entry(deal("deal_2", "150000")),
    ]);
    expect(amounts(lines)).toEqual([
      ["deal_1", "5000.00"],
      ["deal_2", "22500.00"],
    ]);
    expect(lines[1]?.explanation.bands.map((b) => [b.from, b.to, b.amount, b.commission])).toEqual([
      ["0", "100000", "50000", "5000"],
      ["100000", "150000", "50000", "7500"],
      ["150000", null, "50000", "10000"],
    ]);
    expect(lines[1]?.explanation.summary).toBe("50,000.00 × 10% + 50,000.00 × 15% + 50,000.00 × 20% = 22,500.00");
  });

  it("base_rate without tiers applies to all credit; tiers make base_rate ignored", () => {
    expect(amounts(run(basePlan("0.08"), [entry(deal("deal_1", "12345.67"))]))).toEqual([["deal_1", "987.65"]]);
    const line = run(basePlan("0.08"), [entry(deal("deal_1", "12345.67"))])[0];
    expect(line?.explanation.bands).toEqual([
      { from: "0", to: null, rate: "0.08", amount: "12345.67", commission: "987.6536" },
    ]);
    expect(line?.explanation.quota).toBeNull();
    expect(amounts(run(plan({ base_rate: "0.5" }), [entry(deal("deal_1", "1000"))]))).toEqual([["deal_1", "100.00"]]);
  });

  it("a deal-type multiplier scales the line and shows in the summary", () => {
    const p = basePlan("0.1", { deal_type_multipliers: { expansion: "1.5", renewal: "0.5" } });
    const lines = run(p, [
      entry(deal("deal_1", "10000", { deal_type: "expansion", created_at: "2026-07-15T10:00:00.001Z" })),
      entry(deal("deal_2", "10000", { deal_type: "renewal", created_at: "2026-07-15T10:00:00.002Z" })),
      entry(deal("deal_3", "10000", { deal_type: "other", created_at: "2026-07-15T10:00:00.003Z" })),
      entry(deal("deal_4", "10000", { deal_type: "constructor", created_at: "2026-07-15T10:00:00.004Z" })),
    ]);
    expect(amounts(lines)).toEqual([
      ["deal_1", "1500.00"],
      ["deal_2", "500.00"],
      ["deal_3", "1000.00"],
      ["deal_4", "1000.00"],
    ]);
    expect(lines[0]?.explanation.summary).toBe("10,000.00 × 10% × 1.5 (expansion) = 1,500.00");
    expect(lines[0]?.explanation.multiplier).toBe("1.5");
    expect(lines[0]?.explanation.unrounded).toBe("1500");
    expect(lines[2]?.explanation.multiplier).toBe("1");
  });

  it("a min-deal line is 0.00 but its credit still counts toward the next deal's attainment", () => {
    const p = plan({ min_deal_amount: "5000" });
    const lines = run(p, [
      entry(deal("deal_1", "4000", { close_date: "2026-07-01" })),
      entry(deal("deal_2", "100000")),
      entry(deal("deal_3", "5000", { close_date: "2026-08-01" })),
    ]);
    expect(amounts(lines)).toEqual([
      ["deal_1", "0.00"],
      ["deal_2", "10200.00"],
      ["deal_3", "750.00"],
    ]);
    expect(lines[0]?.explanation).toMatchObject({ min_deal_amount: "5000", unrounded: "400", amount: 0, cap: null });
    expect(lines[0]?.explanation.summary).toBe(
      "deal ARR 4,000.00 is below the minimum deal amount 5,000.00, so 0.00 instead of 4,000.00 × 10% = 400.00 (its credit still counts toward attainment)",
    );
    expect(lines[1]?.explanation.prior_attainment).toBe("4000");
    // As stored and served (JSON): the key is there only on lines the minimum zeroed, before amount.
    expect(Object.keys(JSON.parse(JSON.stringify(lines[0]?.explanation))).slice(-2)).toEqual([
      "min_deal_amount",
      "amount",
    ]);
    expect(JSON.parse(JSON.stringify(lines[1]?.explanation))).not.toHaveProperty("min_deal_amount");
  });

  it("min_deal_amount compares the whole deal's arr_amount, not the split credit", () => {
    const d = deal("deal_1", "6000", {
      splits: [
        { user_id: "usr_a", percent: "50" },
        { user_id: "usr_b", percent: "50" },
      ],
    });
    expect(amounts(run(basePlan("0.1", { min_deal_amount: "5000" }), [entry(d)]))).toEqual([["deal_1", "300.00"]]);
  });

  it("a zero-ARR deal lists no bands and earns 0.00", () => {
    const line = run(plan(), [entry(deal("deal_1", "0"))])[0];
    expect(line?.amount).toBe("0.00");
    expect(line?.explanation.bands).toEqual([]);
    expect(line?.explanation.summary).toBe("0.00 credit = 0.00");
  });
});

describe("worked examples: cap per period", () => {
  const p = basePlan("0.1", { cap_per_period: "5000" });
  const locked = (d: DealInput, amount: string) => entry(d, { locked: true, lockedAmount: amount });

  it("crossing line cut, later line 0.00, locked lines use the cap first wherever they fall", () => {
    const lines = run(p, [
      entry(deal("deal_c", "20000", { close_date: "2026-07-10" })),
      locked(deal("deal_a", "20000", { close_date: "2026-07-01" }), "2000.00"),
      entry(deal("deal_b", "20000", { close_date: "2026-07-05" })),
      entry(deal("deal_d", "10000", { close_date: "2026-07-20" })),
      locked(deal("deal_e", "5000", { close_date: "2026-07-30" }), "500.00"),
    ]);
    expect(amounts(lines)).toEqual([
      ["deal_b", "2000.00"],
      ["deal_c", "500.00"],
      ["deal_d", "0.00"],
    ]);
    expect(lines.map((l) => l.explanation.cap)).toEqual([
      { limit: "5000", before: "2500", applied: false },
      { limit: "5000", before: "4500", applied: true },
      { limit: "5000", before: "5000", applied: true },
    ]);
    expect(lines[1]?.explanation.summary).toBe(
      "20,000.00 × 10% = 2,000.00 capped at 500.00 (cap 5,000.00, 4,500.00 used before) = 500.00",
    );
    expect(lines[1]?.explanation.unrounded).toBe("2000");
    expect(lines[2]?.explanation.summary).toBe(
      "10,000.00 × 10% = 1,000.00 capped at 0.00 (cap 5,000.00, 5,000.00 used before) = 0.00",
    );
  });

  it("locked amounts above a lowered cap leave pending lines at 0.00, never negative", () => {
    const lines = run(p, [
      locked(deal("deal_a", "80000", { close_date: "2026-07-01" }), "8000.00"),
      entry(deal("deal_b", "1000")),
    ]);
    expect(amounts(lines)).toEqual([["deal_b", "0.00"]]);
    expect(lines[0]?.explanation.cap).toEqual({ limit: "5000", before: "8000", applied: true });
  });

  it("a line that exactly fills the cap is not cut", () => {
    const lines = run(p, [entry(deal("deal_a", "50000"))]);
    expect(amounts(lines)).toEqual([["deal_a", "5000.00"]]);
    expect(lines[0]?.explanation.cap).toEqual({ limit: "5000", before: "0", applied: false });
    expect(lines[0]?.explanation.summary).toBe("50,000.00 × 10% = 5,000.00");
  });
});

describe("worked examples: splits and per-line rounding", () => {
  it("a 60/40 split divides the credit, each user in their own bucket", () => {
    const d = deal("deal_1", "50000", {
      splits: [
        { user_id: "usr_a", percent: "60" },
        { user_id: "usr_b", percent: "40" },
      ],
    });
    expect(creditsOf(d)).toEqual([
      { user_id: "usr_a", percent: "60", credit: "30000" },
      { user_id: "usr_b", percent: "40", credit: "20000" },
    ]);
    const a = run(basePlan("0.1"), [entry(d, {}, "usr_a")], "usr_a");
    const b = run(basePlan("0.1"), [entry(d, {}, "usr_b")], "usr_b");
    expect([a[0]?.user_id, a[0]?.amount, b[0]?.user_id, b[0]?.amount]).toEqual([
      "usr_a",
      "3000.00",
      "usr_b",
      "2000.00",
    ]);
  });

  const thirds = (arr: string, percents: string[]) => {
    const d = deal("deal_1", arr, { splits: percents.map((percent, i) => ({ user_id: `usr_${i}`, percent })) });
    return creditsOf(d).map((c) => run(basePlan("0.1"), [entry(d, {}, c.user_id)], c.user_id)[0]);
  };

  it("33.33/33.33/33.34 of 10,000 at 10% → 333.30, 333.30, 333.40", () => {
    expect(thirds("10000", ["33.33", "33.33", "33.34"]).map((l) => l?.amount)).toEqual(["333.30", "333.30", "333.40"]);
  });

  it("three thirds of a 100.00 commission round per line: 33.33 × 3 = 99.99", () => {
    const lines = thirds("1000", ["33.3333", "33.3333", "33.3334"]);
    expect(lines.map((l) => l?.explanation.credit)).toEqual(["333.333", "333.333", "333.334"]);
    expect(lines.map((l) => l?.explanation.unrounded)).toEqual(["33.3333", "33.3333", "33.3334"]);
    expect(lines.map((l) => l?.amount)).toEqual(["33.33", "33.33", "33.33"]);
    expect(lines[0]?.explanation.summary).toBe("333.333 × 10% = 33.33");
  });

  it("per-line rounding can also sum above: 33.335 + 33.335 + 33.33 of 100.00 → 100.01", () => {
    expect(thirds("1000", ["33.335", "33.335", "33.33"]).map((l) => l?.amount)).toEqual(["33.34", "33.34", "33.33"]);
  });

  it("credit is exact, never rounded", () => {
    expect(creditsOf(deal("deal_1", "0.01", { splits: [{ user_id: "usr_a", percent: "33.3333" }] }))[0]?.credit).toBe(
      "0.00333333",
    );
    const d = deal("deal_1", "10000.01", { splits: [{ user_id: "usr_a", percent: "33.3333" }] });
    expect(creditsOf(d)[0]?.credit).toBe("3333.33333333");
    expect(run(basePlan("0.1"), [entry(d)])[0]?.explanation.summary).toBe("3,333.33333333 × 10% = 333.33");
  });
});

describe("worked examples: deal order", () => {
  it("an earlier-dated deal created later moves a later deal's amount", () => {
    const late = deal("deal_1", "100000", { close_date: "2026-07-20", created_at: "2026-07-01T00:00:00.000Z" });
    expect(amounts(run(plan(), [entry(late)]))).toEqual([["deal_1", "10000.00"]]);
    const early = deal("deal_2", "50000", { close_date: "2026-07-10", created_at: "2026-07-25T00:00:00.000Z" });
    expect(amounts(run(plan(), [entry(late), entry(early)]))).toEqual([
      ["deal_2", "5000.00"],
      ["deal_1", "12500.00"],
    ]);
  });

  it("same close_date: created_at decides", () => {
    const a = deal("deal_a", "100000", { created_at: "2026-07-15T10:00:00.002Z" });
    const b = deal("deal_b", "100000", { created_at: "2026-07-15T10:00:00.001Z" });
    expect(amounts(run(plan(), [entry(a), entry(b)]))).toEqual([
      ["deal_b", "10000.00"],
      ["deal_a", "15000.00"],
    ]);
  });

  it("same close_date and created_at: id compared as bytes ('B' 0x42 < 'a' 0x61), not by locale", () => {
    const lower = deal("deal_a", "100000");
    const upper = deal("deal_B", "100000");
    expect(compareDealOrder(upper, lower)).toBe(-1);
    expect("deal_B".localeCompare("deal_a")).toBe(1); // what a locale compare would wrongly say
    expect(amounts(run(plan(), [entry(lower), entry(upper)]))).toEqual([
      ["deal_B", "10000.00"],
      ["deal_a", "15000.00"],
    ]);
  });

  it("sorts by close_date, created_at, id", () => {
    const ds = [
      deal("deal_3", "1", { close_date: "2026-07-02", created_at: "2026-01-01T00:00:00.000Z" }),
      deal("deal_2", "1", { close_date: "2026-07-01", created_at: "2026-01-02T00:00:00.000Z" }),
      deal("deal_1", "1", { close_date: "2026-07-01", created_at: "2026-01-02T00:00:00.000Z" }),
      deal("deal_0", "1", { close_date: "2026-07-01", created_at: "2026-01-03T00:00:00.000Z" }),
    ];
    expect([...ds].sort(compareDealOrder).map((d) => d.id)).toEqual(["deal_1", "deal_2", "deal_0", "deal_3"]);
  });
});

describe("worked examples: finding the plan (rule 1)", () => {
  const asg = (over: Partial<AssignmentInput> = {}): AssignmentInput => ({
    id: "asg_1",
    plan_id: "plan_1",
    user_id: "usr_a",
    effective_from: "2026-01-01",
    effective_to: null,
    quota_override: null,
    ...over,
  });
  const find = (assignments: AssignmentInput[], plans: PlanInput[], date = "2026-07-15", currency = "USD") =>
    findPlan("usr_a", date, currency, assignments, plans);

  it("finds the assignment in force, both ends inclusive, quota_override ?? plan quota", () => {
    expect(find([asg()], [plan()])).toMatchObject({
      plan: { id: "plan_1" },
      assignment: { id: "asg_1" },
      quota: "100000",
    });
    expect(find([asg({ quota_override: "50000" })], [plan()])).toMatchObject({ quota: "50000" });
    const bounded = asg({ effective_from: "2026-07-15", effective_to: "2026-07-15" });
    expect(find([bounded], [plan()])).toMatchObject({ assignment: { id: "asg_1" } });
    const p = plan({ effective_from: "2026-07-15", effective_to: "2026-07-15" });
    expect(find([asg()], [p])).toMatchObject({ plan: { id: "plan_1" } });
  });

  it("picks the newest plan version among several given", () => {
    expect(find([asg()], [plan({ version: 1 }), plan({ version: 3 }), plan({ version: 2 })])).toMatchObject({
      plan: { version: 3 },
    });
  });

  it.each([
    ["no assignment", [], [plan()], "no plan assignment in force on 2026-07-15"],
    ["another user's assignment", [asg({ user_id: "usr_b" })], [plan()], "no plan assignment in force on 2026-07-15"],
    [
      "assignment ended the day before",
      [asg({ effective_to: "2026-07-14" })],
      [plan()],
      "no plan assignment in force on 2026-07-15",
    ],
    [
      "assignment starts the day after",
      [asg({ effective_from: "2026-07-16" })],
      [plan()],
      "no plan assignment in force on 2026-07-15",
    ],
    ["plan missing", [asg({ plan_id: "plan_x" })], [plan()], "plan plan_x not found"],
    ["draft plan", [asg()], [plan({ status: "draft" })], "plan plan_1 is draft"],
    ["archived plan", [asg()], [plan({ status: "archived" })], "plan plan_1 is archived"],
    [
      "plan not yet in effect",
      [asg()],
      [plan({ effective_from: "2026-08-01" })],
      "plan plan_1 is not in effect on 2026-07-15 (effective 2026-08-01 to open-ended)",
    ],
    [
      "plan ended",
      [asg()],
      [plan({ effective_to: "2026-06-30" })],
      "plan plan_1 is not in effect on 2026-07-15 (effective 2026-01-01 to 2026-06-30)",
    ],
    ["currency mismatch", [asg()], [plan({ currency: "USD" })], "currency mismatch: deal EUR, plan USD"],
    ["tiers without quota", [asg()], [plan({ quota: null })], "plan plan_1 has tiers but no quota above 0"],
    [
      "tiers with a zero override",
      [asg({ quota_override: "0" })],
      [plan()],
      "plan plan_1 has tiers but no quota above 0",
    ],
  ])("no plan: %s", (name, assignments, plans, reason) => {
    const currency = name === "currency mismatch" ? "EUR" : "USD";
    expect(find(assignments as AssignmentInput[], plans as PlanInput[], "2026-07-15", currency)).toEqual({ reason });
  });

  it("noPlanExplanation says 'no plan in force' and why", () => {
    expect(noPlanExplanation("currency mismatch: deal EUR, plan USD")).toEqual({
      summary: "no plan in force: currency mismatch: deal EUR, plan USD",
      reason: "currency mismatch: deal EUR, plan USD",
    });
  });
});

describe("worked examples: SPIFFs", () => {
  const split = deal("deal_1", "50000", {
    deal_type: "expansion",
    splits: [
      { user_id: "usr_a", percent: "60" },
      { user_id: "usr_b", percent: "40" },
    ],
  });
  const spiff = (over: Partial<SpiffInput> = {}): SpiffInput => ({
    id: "spiff_1",
    name: "Q3 push",
    currency: "USD",
    starts_on: "2026-07-01",
    ends_on: "2026-09-30",
    active: true,
    criteria: {},
    payout: { type: "flat", amount: "500" },
    ...over,
  });
  const spiffs = (s: SpiffInput[], d = split) => calculateSpiffLines(d, creditsOf(d), s, (u) => `period-of-${u}`);

  it("flat pays amount × percent / 100 per credited user", () => {
    const lines = spiffs([spiff()]);
    expect(lines.map((l) => [l.user_id, l.amount, l.period])).toEqual([
      ["usr_a", "300.00", "period-of-usr_a"],
      ["usr_b", "200.00", "period-of-usr_b"],
    ]);
    expect(lines[0]).toEqual({
      deal_id: "deal_1",
      user_id: "usr_a",
      spiff_id: "spiff_1",
      period: "period-of-usr_a",
      kind: "spiff",
      amount: "300.00",
      currency: "USD",
      explanation: {
        summary: 'SPIFF "Q3 push": flat 500.00 × 60% split = 300.00',
        spiff_id: "spiff_1",
        spiff_name: "Q3 push",
        criteria_met: ["SPIFF active", "currency USD", "close_date 2026-07-15 within 2026-07-01 to 2026-09-30"],
        payout: { type: "flat", amount: "500" },
        credit: "30000",
        percent: "60",
        period: "period-of-usr_a",
        unrounded: "300",
        amount: 300,
      },
    });
  });

  it("rate pays credit × rate, rounded per line, with every criterion it met", () => {
    const s = spiff({
      payout: { type: "rate", rate: "0.0125" },
      criteria: { min_arr_amount: "50000", deal_types: ["expansion"], user_ids: ["usr_b"] },
    });
    const lines = spiffs([s], { ...split, arr_amount: "50000.50" });
    expect(lines.map((l) => [l.user_id, l.amount])).toEqual([["usr_b", "250.00"]]);
    expect(lines[0]?.explanation.unrounded).toBe("250.0025");
    expect(lines[0]?.explanation.summary).toBe('SPIFF "Q3 push": 20,000.20 × 1.25% = 250.00');
    expect(lines[0]?.explanation.criteria_met).toEqual([
      "SPIFF active",
      "currency USD",
      "close_date 2026-07-15 within 2026-07-01 to 2026-09-30",
      "arr_amount 50,000.50 ≥ 50,000.00",
      "deal_type expansion is listed",
      "user usr_b is listed",
    ]);
  });

  it("window ends are inclusive", () => {
    expect(spiffs([spiff({ starts_on: "2026-07-15", ends_on: "2026-07-15" })])).toHaveLength(2);
  });

  it.each([
    ["inactive", spiff({ active: false })],
    ["other currency", spiff({ currency: "EUR" })],
    ["window starts after close", spiff({ starts_on: "2026-07-16" })],
    ["window ended before close", spiff({ ends_on: "2026-07-14" })],
    ["arr below minimum", spiff({ criteria: { min_arr_amount: "50000.01" } })],
    ["deal type not listed", spiff({ criteria: { deal_types: ["new_business", "renewal"] } })],
    ["no credited user listed", spiff({ criteria: { user_ids: ["usr_z"] } })],
  ])("no SPIFF line: %s", (_name, s) => {
    expect(spiffs([s])).toEqual([]);
  });

  it("null criteria mean 'any'; several SPIFFs each pay", () => {
    const open = spiff({ id: "spiff_2", criteria: { min_arr_amount: null, deal_types: null, user_ids: null } });
    expect(spiffs([spiff(), open]).map((l) => [l.spiff_id, l.user_id])).toEqual([
      ["spiff_1", "usr_a"],
      ["spiff_1", "usr_b"],
      ["spiff_2", "usr_a"],
      ["spiff_2", "usr_b"],
    ]);
  });
});

describe("periods", () => {
  it.each([
    ["month", "2026-07-15", "2026-07"],
    ["quarter", "2026-07-15", "2026-Q3"],
    ["year", "2026-07-15", "2026"],
    ["month", "2026-12-31", "2026-12"],
    ["month", "2027-01-01", "2027-01"],
    ["quarter", "2026-10-01", "2026-Q4"],
    ["quarter", "2026-12-31", "2026-Q4"],
    ["quarter", "2027-01-01", "2027-Q1"],
    ["quarter", "2026-03-31", "2026-Q1"],
    ["quarter", "2026-04-01", "2026-Q2"],
    ["year", "2026-12-31", "2026"],
    ["year", "2027-01-01", "2027"],
  ] as const)("periodOf(%s, %s) = %s", (kind, date, period) => {
    expect(periodOf(kind, date)).toBe(period);
  });

  it("quarterOf is the calendar quarter", () => {
    expect(quarterOf("2026-11-22")).toBe("2026-Q4");
  });

  it.each([
    ["2026-07", "2026-07-01", "2026-07-31"],
    ["2026-12", "2026-12-01", "2026-12-31"],
    ["2026-02", "2026-02-01", "2026-02-28"],
    ["2028-02", "2028-02-01", "2028-02-29"],
    ["2100-02", "2100-02-01", "2100-02-28"],
    ["2000-02", "2000-02-01", "2000-02-29"],
    ["2026-Q1", "2026-01-01", "2026-03-31"],
    ["2026-Q3", "2026-07-01", "2026-09-30"],
    ["2026-Q4", "2026-10-01", "2026-12-31"],
    ["2026", "2026-01-01", "2026-12-31"],
  ])("periodRange(%s) = %s..%s", (period, from, to) => {
    expect(periodRange(period)).toEqual({ from, to });
  });

  it("rejects malformed dates and periods", () => {
    expect(() => periodOf("month", "2026-13-01")).toThrow(RangeError);
    expect(() => periodOf("month", "2026-7-1")).toThrow(RangeError);
    expect(() => periodRange("2026-Q5")).toThrow(RangeError);
    expect(() => periodRange("2026-00")).toThrow(RangeError);
  });
});

describe("money: rounding and formatting", () => {
  it.each([
    ["0.005", "0.01"],
    ["-0.005", "-0.01"],
    ["0.004999", "0.00"],
    ["-0.004999", "0.00"],
    ["0.015", "0.02"],
    ["-0.015", "-0.02"],
    ["2.675", "2.68"],
    ["-2.675", "-2.68"],
    ["1.0049999999", "1.00"],
    ["123456789012.345", "123456789012.35"],
  ])("round %s half away from zero → %s", (value, cents) => {
    expect(toCents(value)).toBe(cents);
  });

  it("never yields negative zero", () => {
    expect(Object.is(money.roundCents(money.parse("-0.001")).c, -0)).toBe(false);
    expect(toCents("-0.001")).toBe("0.00");
  });

  it.each([
    ["0", "0.00"],
    ["999", "999.00"],
    ["1000", "1,000.00"],
    ["1234567.5", "1,234,567.50"],
    ["-1234.5", "-1,234.50"],
    ["3333.3333", "3,333.3333"],
    ["0.00333333", "0.00333333"],
  ])("formatMoney(%s) = %s", (value, text) => {
    expect(formatMoney(value)).toBe(text);
  });

  it.each([
    ["0.1", "10%"],
    ["0.125", "12.5%"],
    ["0.123456", "12.3456%"],
    ["1", "100%"],
    ["0", "0%"],
  ])("formatPercent(%s) = %s", (rate, text) => {
    expect(formatPercent(rate)).toBe(text);
  });
});

describe("bucket contract", () => {
  it("returns lines only for unlocked entries, in deal order; locked credit still counts", () => {
    const lines = run(plan(), [
      entry(deal("deal_3", "10000", { close_date: "2026-07-30" })),
      entry(deal("deal_2", "100000", { close_date: "2026-07-20" }), { locked: true, lockedAmount: "10000.00" }),
      entry(deal("deal_1", "10000", { close_date: "2026-07-10" })),
    ]);
    expect(amounts(lines)).toEqual([
      ["deal_1", "1000.00"],
      ["deal_3", "1500.00"],
    ]);
    expect(lines[1]?.explanation.prior_attainment).toBe("110000");
  });

  it("throws on a tiered plan without a positive quota (findPlan reports it instead)", () => {
    expect(() => run(plan(), [entry(deal("deal_1", "1"))], "usr_a", null)).toThrow(RangeError);
    expect(() => run(basePlan("0.1", { base_rate: null }), [entry(deal("deal_1", "1"))])).toThrow(RangeError);
  });

  it("no number in an explanation uses exponent notation", () => {
    const line = run(basePlan("0.000001"), [entry(deal("deal_1", "0.01"))])[0];
    expect(line?.explanation.unrounded).toBe("0.00000001");
    expect(JSON.stringify(line)).not.toMatch(/\d[eE][+-]?\d/);
  });
});
