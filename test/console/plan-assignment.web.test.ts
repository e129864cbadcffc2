import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CreateAssignmentBody } from "../../src/comp-plans/index.js";
import { checkSpan } from "../../src/comp-plans/testing.js";
import { PreviewBody } from "../../src/deals/index.js";
import type { CompPlan } from "../../web/src/data/comp-plans/queries.js";
import { sampleBody, sampleDeal, sampleProblems } from "../../web/src/pages/plans/sample-deal.js";
import {
  type AssignmentValues,
  assignmentBody,
  assignmentErrorsInWords,
  assignmentProblems,
} from "../../web/src/ui/plan-assignment/assignment-form.js";
import { findOverlap, overlapSentence, overlaps } from "../../web/src/ui/plan-assignment/overlap.js";

// Assignments from a plan and from a person (issue #30): what the form finds wrong before sending, in
// words, against the API's schema and span rules; the overlap refusal (409) as a sentence naming the
// assignment in the way. And the sample deal a plan is tried on.

const valid: AssignmentValues = {
  user_id: "usr_1",
  effective_from: "2026-01-01",
  effective_to: "",
  quota_override: "",
};

describe("assignmentProblems", () => {
  it.each<[Partial<AssignmentValues>, boolean, Record<string, string>]>([
    [{}, true, {}],
    [{ user_id: null }, false, { user_id: "Pick the person to assign." }],
    [{ effective_from: "" }, false, { effective_from: "Pick the first day the plan applies to them." }],
    [{ effective_to: "2025-12-31" }, false, { effective_to: "Pick an end date on or after the start (Jan 1, 2026)." }],
    [{ effective_to: "2026-01-01" }, false, {}],
    [
      { quota_override: -1 },
      false,
      { quota_override: "Give a quota of zero or more, or leave it empty for the plan's." },
    ],
    [{ quota_override: 10.005 }, false, { quota_override: "Give the quota with at most 2 decimals (USD)." }],
    [{ quota_override: 0 }, false, {}],
    [
      { quota_override: 0 },
      true,
      { quota_override: "Give a quota above zero (the plan's tiers are measured against it), or leave it empty." },
    ],
  ])("%j (tiers: %s) → %j", (change, tiered, problems) => {
    expect(assignmentProblems({ ...valid, ...change }, tiered, "USD")).toEqual(problems);
  });

  it("finds a problem exactly when the API refuses the body: its schema, then the span's rules", () => {
    const values = fc.record<AssignmentValues>({
      user_id: fc.constantFrom<string | null>("usr_1", null),
      effective_from: fc.constantFrom("2026-01-01", "2026-06-30", ""),
      effective_to: fc.constantFrom("", "2025-12-31", "2026-06-30", "2026-12-31"),
      quota_override: fc.oneof(
        fc.constant(""),
        fc.integer({ min: -100, max: 10_000_000 }).map((n) => n / 100),
        fc.constantFrom(0, 1.005, 1.5, 1.0005, 1e15),
      ),
    });
    fc.assert(
      fc.property(values, fc.boolean(), fc.constantFrom("USD", "JPY", "KWD"), (v, tiered, currency) => {
        const found = assignmentProblems(v, tiered, currency);
        const parsed = CreateAssignmentBody.safeParse(assignmentBody(v));
        let refused: unknown = parsed.error?.issues;
        if (parsed.success) {
          const plan = { id: "plan_1", currency, tiers: tiered ? [{ from_attainment: "0", rate: "0.1" }] : [] };
          const span = {
            effective_from: parsed.data.effective_from,
            effective_to: parsed.data.effective_to ?? null,
            quota_override: parsed.data.quota_override ?? null,
          };
          try {
            checkSpan(plan as Parameters<typeof checkSpan>[0], span);
          } catch (err) {
            refused = err;
          }
        }
        expect(Object.keys(found).length === 0, JSON.stringify({ v, found, refused })).toBe(refused === undefined);
      }),
      { numRuns: 500 },
    );
  });

  it("says the API's field strings in words; a parameter it does not know keeps its message", () => {
    expect(
      assignmentErrorsInWords({
        effective_to: "must be on or after effective_from (2026-01-01)",
        quota_override: "must be greater than 0: plan plan_1 has tiers",
        user_id: "user usr_9 does not exist",
        other: "must be something",
      }),
    ).toEqual({
      effective_to: "Pick an end date on or after the start, or leave it empty.",
      quota_override: "Give a quota above zero with at most the currency's decimals, or leave it empty for the plan's.",
      user_id: "Pick someone who is in the list: this person is not known.",
      other: "must be something",
    });
  });
});

describe("the overlap refusal as a sentence", () => {
  const a = (id: string, plan_id: string, effective_from: string, effective_to: string | null) => ({
    id,
    plan_id,
    effective_from,
    effective_to,
  });

  it.each([
    [{ effective_from: "2026-01-01", effective_to: null }, { effective_from: "2030-01-01", effective_to: null }, true],
    [
      { effective_from: "2026-01-01", effective_to: "2026-03-31" },
      { effective_from: "2026-03-31", effective_to: null },
      true,
    ],
    [
      { effective_from: "2026-01-01", effective_to: "2026-03-31" },
      { effective_from: "2026-04-01", effective_to: null },
      false,
    ],
    [
      { effective_from: "2026-04-01", effective_to: "2026-06-30" },
      { effective_from: "2026-01-01", effective_to: "2026-03-31" },
      false,
    ],
  ])("%j and %j share a day: %s", (x, y, shared) => {
    expect(overlaps(x, y)).toBe(shared);
    expect(overlaps(y, x)).toBe(shared);
  });

  it("finds the earliest assignment in the way, never the one being changed", () => {
    const theirs = [
      a("asg_3", "plan_b", "2026-07-01", null),
      a("asg_2", "plan_a", "2026-01-01", "2026-06-30"),
      a("asg_1", "plan_a", "2025-01-01", "2025-12-31"),
    ];
    expect(findOverlap(theirs, { effective_from: "2026-03-01", effective_to: null })?.id).toBe("asg_2");
    expect(findOverlap(theirs, { effective_from: "2026-03-01", effective_to: null }, "asg_2")?.id).toBe("asg_3");
    expect(findOverlap(theirs, { effective_from: "2024-01-01", effective_to: "2024-12-31" })).toBeUndefined();
  });

  it("names the person, the plan and its dates, and what to do", () => {
    const other = { effective_from: "2026-01-01", effective_to: null, planName: "AE 2026" };
    expect(overlapSentence("Pia Planner", other, false)).toBe(
      "Pia Planner is already on AE 2026 from Jan 1, 2026 with no end date, and a person has one plan at a time. End that assignment first, or pick dates outside it.",
    );
    expect(overlapSentence("Pia Planner", { ...other, effective_to: "2026-03-31" }, true)).toBe(
      "Pia Planner is already on this plan from Jan 1, 2026 to Mar 31, 2026. Change that assignment's dates instead, or pick dates outside it.",
    );
    // API.md §16: an override plan only blocks another override plan.
    expect(overlapSentence("Pia Planner", { ...other, planName: "Overrides", kind: "override" }, false)).toBe(
      "Pia Planner is already on Overrides from Jan 1, 2026 with no end date, and a person has one override plan at a time. End that assignment first, or pick dates outside it.",
    );
  });
});

describe("the sample deal a plan is tried on", () => {
  const plan = { id: "plan_1", currency: "EUR", effective_from: "2026-01-01", effective_to: "2026-12-31" } as CompPlan;

  it("closes today when the plan is in force today, else on its nearest day", () => {
    expect(sampleDeal(plan, "usr_1", "2026-05-02").close_date).toBe("2026-05-02");
    expect(sampleDeal(plan, "usr_1", "2025-05-02").close_date).toBe("2026-01-01");
    expect(sampleDeal(plan, "usr_1", "2027-05-02").close_date).toBe("2026-12-31");
  });

  it.each<[Partial<ReturnType<typeof sampleDeal>>, Record<string, string>]>([
    [{}, {}],
    [{ arr_amount: "" }, { arr_amount: "Give the deal's ARR amount." }],
    [{ arr_amount: -1 }, { arr_amount: "Give an amount of zero or more." }],
    [{ arr_amount: 1.2345 }, { arr_amount: "Give the amount with at most 2 decimals (EUR)." }],
    [{ close_date: "" }, { close_date: "Pick the day the deal closes." }],
    [{ owner_id: null }, { owner_id: "Pick whose deal it is." }],
  ])("%j → %j; the API takes the body exactly when nothing is found", (change, problems) => {
    const deal = { ...sampleDeal(plan, "usr_1", "2026-05-02"), arr_amount: 30000, ...change };
    expect(sampleProblems(deal, plan.currency)).toEqual(problems);
    const parsed = PreviewBody.safeParse(sampleBody(plan, deal));
    expect(parsed.success).toBe(Object.keys(problems).length === 0);
    if (parsed.success) expect(parsed.data).toMatchObject({ currency: "EUR", plan_id: "plan_1" });
  });
});
