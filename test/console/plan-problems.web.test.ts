import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CreatePlanBody } from "../../src/comp-plans/index.js";
import { checkPlanTerms, normalizeTerms } from "../../src/comp-plans/testing.js";
import type { CompPlan } from "../../web/src/data/comp-plans/queries.js";
import { planErrorsInWords, planProblems } from "../../web/src/pages/plans/plan-problems.js";
import {
  bandsInWords,
  copyValues,
  createBody,
  editBody,
  levelsInWords,
  type PlanValues,
  valuesOf,
} from "../../web/src/pages/plans/plan-values.js";

// The plan builder (issue #30): tiers edited in percent and sent as the ratios the API stores, exactly;
// what the form finds wrong before sending, in words, checked against the API's own schema and rules;
// the API's 422s said again in the same words.

const valid: PlanValues = {
  name: "AE 2026",
  description: "",
  status: "draft",
  kind: "standard",
  period: "quarter",
  currency: "USD",
  quota: "50000",
  rating: "tiers",
  base_rate: "",
  tiers: [
    { from: "0", rate: "10" },
    { from: "100", rate: "13" },
    { from: "150", rate: "20.5" },
  ],
  multipliers: [{ type: "renewal", factor: "0.5" }],
  min_deal_amount: "",
  cap_per_period: "",
  levels: [{ depth: "1", rate: "" }],
  effective_from: "2026-01-01",
  effective_to: "",
  clawback: null,
};

/** An override plan's form: 3% on direct reports, 1.25% two levels below (its standard fields unsent). */
const validOverride: PlanValues = {
  ...valid,
  name: "Manager overrides",
  kind: "override",
  levels: [
    { depth: "1", rate: "3" },
    { depth: "2", rate: "1.25" },
  ],
};

/** A plan as GET /comp-plans/{id} answers it. */
const plan: CompPlan = {
  id: "plan_1",
  name: "AE 2026",
  description: null,
  status: "active",
  kind: "standard",
  currency: "USD",
  period: "quarter",
  quota: 50000,
  base_rate: null,
  tiers: [
    { from_attainment: 0, rate: 0.1 },
    { from_attainment: 1, rate: 0.13 },
    { from_attainment: 1.5, rate: 0.205 },
  ],
  deal_type_multipliers: { renewal: 0.5 },
  min_deal_amount: null,
  cap_per_period: null,
  override_levels: null,
  fx_max_age_days: 7,
  effective_from: "2026-01-01",
  effective_to: null,
  clawback: null,
  version: 3,
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:00Z",
};

describe("the plan's values and bodies", () => {
  it("sends tiers typed in percent as exact ratios: 13% is 0.13, 0.07% is 0.0007, 150% of quota is 1.5", () => {
    const body = createBody({
      ...valid,
      tiers: [
        { from: "0", rate: "0.07" },
        { from: "57", rate: "14.35" },
        { from: "150", rate: "13" },
      ],
    });
    // What the wire carries (JSON), and what the API's schema makes of it (its exact decimal strings).
    expect(JSON.stringify(body.tiers)).toBe(
      '[{"from_attainment":0,"rate":0.0007},{"from_attainment":0.57,"rate":0.1435},{"from_attainment":1.5,"rate":0.13}]',
    );
    const parsed = CreatePlanBody.parse(body);
    expect(parsed.tiers).toEqual([
      { from_attainment: "0", rate: "0.0007" },
      { from_attainment: "0.57", rate: "0.1435" },
      { from_attainment: "1.5", rate: "0.13" },
    ]);
  });

  it("reads a plan's ratios back as the percents typed, and a copy is a draft named Copy of …", () => {
    expect(valuesOf(plan)).toEqual({ ...valid, status: "active" });
    expect(copyValues(plan)).toMatchObject({ name: "Copy of AE 2026", status: "draft", tiers: valid.tiers });
    expect(copyValues({ ...plan, name: "x".repeat(200) }).name).toHaveLength(200);
    expect(valuesOf({ ...plan, tiers: [], base_rate: 0.0575 })).toMatchObject({ rating: "flat", base_rate: "5.75" });
  });

  it("an edit sends only what changed; an untouched plan sends nothing", () => {
    expect(editBody(plan, valuesOf(plan))).toEqual({});
    const values = valuesOf(plan);
    values.tiers[1] = { from: "100", rate: "12" };
    expect(editBody(plan, values)).toEqual({
      tiers: [
        { from_attainment: 0, rate: 0.1 },
        { from_attainment: 1, rate: 0.12 },
        { from_attainment: 1.5, rate: 0.205 },
      ],
    });
    expect(editBody(plan, { ...valuesOf(plan), rating: "flat", base_rate: "9" })).toEqual({
      base_rate: 0.09,
      tiers: null,
    });
  });

  it("an override plan sends its kind and levels as exact ratios, and nothing of a standard plan's rating", () => {
    const body = createBody(validOverride);
    expect(body).toEqual({
      kind: "override",
      name: "Manager overrides",
      description: null,
      status: "draft",
      period: "quarter",
      currency: "USD",
      effective_from: "2026-01-01",
      effective_to: null,
      clawback: null,
      override_levels: [
        { depth: 1, rate: 0.03 },
        { depth: 2, rate: 0.0125 },
      ],
    });
    expect(CreatePlanBody.parse(body).override_levels).toEqual([
      { depth: 1, rate: "0.03" },
      { depth: 2, rate: "0.0125" },
    ]);
    expect(createBody(valid).kind).toBe("standard");
  });

  it("reads an override plan's levels back in percent; an edit sends only the levels changed, never its kind", () => {
    const override: CompPlan = {
      ...plan,
      name: "Manager overrides",
      kind: "override",
      quota: null,
      tiers: [],
      deal_type_multipliers: {},
      override_levels: [
        { depth: 1, rate: 0.03 },
        { depth: 2, rate: 0.0125 },
      ],
    };
    const values = valuesOf(override);
    expect(values).toMatchObject({ kind: "override", levels: validOverride.levels });
    expect(editBody(override, values)).toEqual({});
    expect(editBody(override, { ...values, levels: [{ depth: "1", rate: "4" }] })).toEqual({
      override_levels: [{ depth: 1, rate: 0.04 }],
    });
    expect(copyValues(override)).toMatchObject({ kind: "override", name: "Copy of Manager overrides" });
  });

  it.each<[PlanValues["levels"], string | null]>([
    [validOverride.levels, "The manager earns 3% on their direct reports' credits; 1.25% on credits 2 levels below."],
    [
      [
        { depth: "3", rate: "0.5" },
        { depth: "1", rate: "2" },
      ],
      "The manager earns 2% on their direct reports' credits; 0.5% on credits 3 levels below.",
    ],
    [[{ depth: "1", rate: "" }], null],
    [
      [
        { depth: "1", rate: "2" },
        { depth: "1", rate: "3" },
      ],
      null,
    ],
  ])("the levels in words: %j → %s", (levels, words) => {
    expect(levelsInWords(levels)).toBe(words);
  });

  it.each<[PlanValues["tiers"], string | null]>([
    [valid.tiers, "Credit up to 100% of quota earns 10%; from 100% to 150%, 13%; above 150%, 20.5%."],
    [[{ from: "0", rate: "8" }], "All credit earns 8%."],
    [
      [
        { from: "0", rate: "8" },
        { from: "", rate: "9" },
      ],
      null,
    ],
    [
      [
        { from: "0", rate: "8" },
        { from: "0", rate: "9" },
      ],
      null,
    ],
  ])("the bands in words: %j → %s", (tiers, words) => {
    expect(bandsInWords(tiers)).toBe(words);
  });
});

describe("planProblems", () => {
  it.each<[Partial<PlanValues>, Record<string, string>]>([
    [{}, {}],
    [{ name: " " }, { name: "Give the plan a name." }],
    [{ name: "x".repeat(201) }, { name: "Keep the name to 200 characters." }],
    [{ currency: "US" }, { currency: "Give a three-letter currency code, such as USD." }],
    [{ quota: "" }, { quota: "Give the quota the tiers are measured against." }],
    [{ quota: "0" }, { quota: "Give a quota above zero: the tiers are measured against it." }],
    [{ quota: "10.001" }, { quota: "Give the quota with at most 2 decimals (USD)." }],
    [{ cap_per_period: "-1" }, { cap_per_period: "Give the cap of zero or more." }],
    [{ tiers: [{ from: "0", rate: "" }] }, { "tiers[0].rate": "Give tier 1's rate in percent (10 for 10%)." }],
    [
      { tiers: [{ from: "0", rate: "12.34567" }] },
      { "tiers[0].rate": "Give a rate with at most 4 decimals (12.3456%)." },
    ],
    [{ tiers: [{ from: "0", rate: "1000.5" }] }, { "tiers[0].rate": "Give a rate of at most 1,000%." }],
    [{ tiers: [{ from: "0", rate: "ten" }] }, { "tiers[0].rate": "Give a rate as a number of percent, such as 12.5." }],
    [
      {
        tiers: [
          { from: "0", rate: "10" },
          { from: "", rate: "12" },
        ],
      },
      { "tiers[1].from_attainment": "Give where tier 2 starts, in percent of quota (100 = quota met)." },
    ],
    [
      {
        tiers: [
          { from: "0", rate: "10" },
          { from: "120", rate: "12" },
          { from: "120.0", rate: "15" },
        ],
      },
      {
        "tiers[2].from_attainment":
          "Start tier 3 above 120% of quota, where tier 2 starts: each tier starts where the one before it ends.",
      },
    ],
    [{ tiers: [] }, { tiers: "Add at least one tier, or pay one rate on all credit." }],
    [{ rating: "flat", quota: "" }, { base_rate: "Give the rate paid on all credit, in percent (10 for 10%)." }],
    [{ rating: "flat", quota: "", base_rate: "7.5" }, {}],
    [
      { multipliers: [{ type: "", factor: "1" }] },
      { "multipliers[0].type": "Pick the deal type this multiplier applies to." },
    ],
    [
      {
        multipliers: [
          { type: "renewal", factor: "0.5" },
          { type: "renewal", factor: "0.6" },
        ],
      },
      { "multipliers[1].type": "Renewal already has a multiplier: each deal type takes one." },
    ],
    [
      { multipliers: [{ type: "renewal", factor: "" }] },
      { "multipliers[0].factor": "Give the factor: 1 counts the deal in full, 0.5 half." },
    ],
    [{ effective_from: "" }, { effective_from: "Pick the first day the plan is in force." }],
    [{ effective_to: "2025-12-31" }, { effective_to: "Pick an end date on or after the start (Jan 1, 2026)." }],
    [{ effective_to: "2026-01-01" }, {}],
  ])("%j → %j", (change, problems) => {
    expect(planProblems({ ...valid, ...change })).toEqual(problems);
  });

  it.each<[Partial<PlanValues>, Record<string, string>]>([
    [{}, {}],
    // A standard plan's fields are neither checked nor sent on an override plan.
    [{ quota: "", tiers: [], multipliers: [{ type: "", factor: "x" }], cap_per_period: "-1" }, {}],
    [
      { levels: [] },
      { override_levels: "Add at least one level: the rate a manager earns on the credits of their reports." },
    ],
    [
      { levels: [{ depth: "1", rate: "" }] },
      { "override_levels[0].rate": "Give the rate at depth 1 in percent (3 for 3%)." },
    ],
    [{ levels: [{ depth: "1", rate: "-1" }] }, { "override_levels[0].rate": "Give a rate of 0% or more." }],
    [{ levels: [{ depth: "1", rate: "0" }] }, {}],
    [
      { levels: [{ depth: "", rate: "3" }] },
      { "override_levels[0].depth": "Pick a depth from 1 (direct reports) to 5." },
    ],
    [
      {
        levels: [
          { depth: "2", rate: "3" },
          { depth: "2", rate: "1" },
        ],
      },
      { "override_levels[1].depth": "Depth 2 already has a rate: each depth takes one." },
    ],
    [{ name: "" }, { name: "Give the plan a name." }],
  ])("an override plan: %j → %j", (change, problems) => {
    expect(planProblems({ ...validOverride, ...change })).toEqual(problems);
  });

  /** Decimal text such as "1234.5" from digits and a count of decimals (the form takes text, never floats). */
  const decimal = (digits: number, places: number) => {
    const text = String(digits).padStart(places + 1, "0");
    return places === 0 ? text : `${text.slice(0, -places)}.${text.slice(-places)}`;
  };
  const decimalText = (max: number, places: number) =>
    fc.tuple(fc.nat({ max }), fc.nat({ max: places })).map(([n, p]) => decimal(n, p));
  /** Mostly a valid value, sometimes one that may not be: most runs then hold one problem at most. */
  const mostly = <T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<T>) =>
    fc.oneof({ weight: 9, arbitrary: good }, { weight: 1, arbitrary: bad });
  const percentText = mostly(
    decimalText(10_000_000, 4).filter((p) => Number(p) <= 1000),
    fc.oneof(decimalText(2_000_000, 6), fc.constantFrom("", "ten", "-1", "1e1", "1000.0001", " 12.5 ")),
  );
  const moneyText = (good: fc.Arbitrary<string>) =>
    mostly(good, fc.oneof(decimalText(10_000_000, 3), fc.constantFrom("", "-5", "0", "abc")));
  const ascendingTiers = fc
    .uniqueArray(
      decimalText(10_000_000, 4).filter((p) => Number(p) > 0 && Number(p) <= 100_000),
      {
        maxLength: 3,
        selector: Number,
      },
    )
    .chain((starts) => {
      const froms = ["0", ...starts.sort((a, b) => Number(a) - Number(b))];
      return fc.tuple(...froms.map((from) => percentText.map((rate) => ({ from, rate }))));
    });
  const anyTiers = fc
    .array(fc.record({ from: percentText, rate: percentText }), { minLength: 1, maxLength: 4 })
    .chain((rows) => fc.constantFrom(rows, [{ ...rows[0]!, from: "0" }, ...rows.slice(1)]));
  const factorText = mostly(
    decimalText(1_000_000_000, 6).filter((f) => Number(f) <= 1000),
    fc.oneof(decimalText(2_000_000, 7), fc.constantFrom("", "-1", "x")),
  );
  const multipliers = mostly(
    fc
      .uniqueArray(fc.constantFrom("renewal", "expansion", "new_business", "other"), { maxLength: 3 })
      .chain((types) => fc.tuple(...types.map((type) => factorText.map((factor) => ({ type, factor }))))),
    fc.array(fc.record({ type: fc.constantFrom<string>("", "renewal", "expansion"), factor: factorText }), {
      maxLength: 3,
    }),
  );

  it("finds a problem exactly when the API refuses the body: its schema, and the rules across fields it checks next", () => {
    const levelRows = fc.array(
      fc.record({ depth: mostly(fc.constantFrom("1", "2", "3", "4", "5"), fc.constant("")), rate: percentText }),
      { maxLength: 5 },
    );
    const values = fc.record<PlanValues>({
      kind: fc.constantFrom("standard", "override"),
      levels: mostly(
        fc
          .uniqueArray(fc.constantFrom("1", "2", "3", "4", "5"), { minLength: 1, maxLength: 5 })
          .chain((depths) => fc.tuple(...depths.map((depth) => percentText.map((rate) => ({ depth, rate }))))),
        levelRows,
      ),
      name: mostly(
        fc.string({ minLength: 1, maxLength: 40 }).filter((n) => n.trim() !== ""),
        fc.constantFrom("", " ", "x".repeat(201), ` ${"y".repeat(200)} `),
      ),
      description: fc.string({ maxLength: 10 }),
      status: fc.constant("draft"),
      period: fc.constantFrom("month", "quarter", "year"),
      // Well-formed codes are ISO ones: an unknown code is the API's alone to refuse.
      currency: mostly(fc.constantFrom("USD", "eur", "GBP"), fc.constantFrom("US", "", "1AB")),
      quota: moneyText(decimalText(10_000_000_000, 2).filter((q) => Number(q) > 0)),
      rating: fc.constantFrom("tiers", "flat"),
      base_rate: percentText,
      // The form's first tier starts at 0 and cannot be removed: at least one row.
      tiers: mostly(ascendingTiers, anyTiers),
      multipliers,
      min_deal_amount: moneyText(fc.oneof(fc.constant(""), decimalText(10_000_000, 2))),
      cap_per_period: moneyText(fc.oneof(fc.constant(""), decimalText(10_000_000, 2))),
      effective_from: mostly(fc.constantFrom("2026-01-01", "2026-06-30"), fc.constant("")),
      effective_to: mostly(fc.constantFrom("", "2026-06-30", "2026-12-31"), fc.constant("2025-12-31")),
      clawback: fc.constant(null),
    });
    fc.assert(
      fc.property(values, (v) => {
        const found = planProblems(v);
        const parsed = CreatePlanBody.safeParse(createBody(v));
        let refused: unknown = parsed.error?.issues;
        if (parsed.success) {
          const d = parsed.data;
          try {
            checkPlanTerms({
              kind: d.kind,
              ...normalizeTerms({
                currency: d.currency,
                period: d.period,
                quota: d.quota ?? null,
                base_rate: d.base_rate ?? null,
                tiers: d.tiers ?? [],
                deal_type_multipliers: d.deal_type_multipliers as Record<string, string>,
                min_deal_amount: d.min_deal_amount ?? null,
                cap_per_period: d.cap_per_period ?? null,
                effective_from: d.effective_from,
                override_levels: d.override_levels ?? null,
                effective_to: d.effective_to ?? null,
                clawback: null,
                fx_max_age_days: d.fx_max_age_days,
              }),
            });
          } catch (err) {
            refused = err;
          }
        }
        // The form's own rule: a deal type listed twice (a JSON object keeps only the last; an override
        // plan sends no multipliers).
        const types = v.multipliers.map((m) => m.type);
        const twice = v.kind === "standard" && new Set(types).size !== types.length;
        const accepted = refused === undefined && !twice;
        expect(Object.keys(found).length === 0, JSON.stringify({ v, found, refused })).toBe(accepted);
      }),
      { numRuns: 1000 },
    );
  });

  it("what the form accepts reaches the API as exactly the percents typed, as ratios", () => {
    const typed = decimalText(10_000_000, 4).filter((p) => Number(p) <= 1000);
    fc.assert(
      fc.property(typed, (percent) => {
        const v = { ...valid, tiers: [{ from: "0", rate: percent }] };
        expect(planProblems(v)).toEqual({});
        const stored = CreatePlanBody.parse(JSON.parse(JSON.stringify(createBody(v)))).tiers![0]!.rate;
        // The API's answer is that decimal as a JSON number; the form shows it as the percent typed.
        const [whole, fraction = ""] = percent.split(".");
        const expected = `${Number(whole)}${fraction.replace(/0+$/, "") ? `.${fraction.replace(/0+$/, "")}` : ""}`;
        expect(valuesOf({ ...plan, tiers: [{ from_attainment: 0, rate: Number(stored) }] }).tiers[0]!.rate).toBe(
          expected,
        );
      }),
      { numRuns: 500 },
    );
  });
});

describe("planErrorsInWords", () => {
  it("says the API's field strings in words, on the form's fields; a parameter it does not know keeps its message", () => {
    expect(
      planErrorsInWords(
        {
          name: "must be at least 1 characters",
          currency: "XYZ is not an active ISO 4217 currency code",
          quota: "must be greater than 0 for a plan with tiers",
          base_rate: "is required when the plan has no tiers (give base_rate or tiers)",
          "tiers[0].from_attainment": "must be 0: the first band starts at 0% of quota",
          "tiers[2].from_attainment": "must be greater than tiers[1].from_attainment (1): tiers ascend",
          "tiers[1].rate": "must be at most 10",
          "deal_type_multipliers.renewal": "must be at most 1000",
          "deal_type_multipliers.bogus": "is not a deal type (new_business, expansion, renewal, other)",
          effective_to: "must be on or after effective_from (2026-01-01)",
          kind: "is immutable: plan plan_1 is an override plan; create a standard plan instead",
          override_levels: "must give each depth once: depth 2 is given more than once",
          "override_levels[0].depth": "must be at most 5",
          "override_levels[1].rate": "must be at least 0",
          other: "must be something",
        },
        valid,
      ),
    ).toEqual({
      name: "Give the plan a name of at most 200 characters.",
      currency: "XYZ is not a currency code in use: give one such as USD or EUR.",
      quota: "Give a quota above zero: the tiers are measured against it.",
      base_rate: "Give the rate paid on all credit, or add tiers.",
      "tiers[0].from_attainment": "The first tier starts at 0% of quota.",
      "tiers[2].from_attainment":
        "Start tier 3 above where tier 2 starts: each tier starts where the one before it ends.",
      "tiers[1].rate": "Give the tier's rate from 0 to 1,000% with at most 4 decimals.",
      "multipliers[0].factor": "Give a factor from 0 to 1,000 with at most 6 decimals.",
      deal_type_multipliers: "Pick a deal type from the list.",
      effective_to: "Pick an end date on or after the start, or leave it empty.",
      kind: "A plan's kind is fixed when it is created: duplicate it as the other kind instead.",
      override_levels: "Give each depth one rate.",
      "override_levels[0].depth": "Pick a depth from 1 (direct reports) to 5.",
      "override_levels[1].rate": "Give the level's rate from 0 to 1,000% with at most 4 decimals.",
      other: "must be something",
    });
  });
});
