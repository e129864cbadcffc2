import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CreateAdjustmentBody } from "../../src/commissions/index.js";
import { minorUnitProblems } from "../../src/http/commission-fields.js";
import {
  type AdjustmentValues,
  adjustmentBody,
  adjustmentProblems,
} from "../../web/src/pages/deals/adjustment-problems.js";

// The deal page's adjustment form (issue #30): what it finds before sending, in words, checked against
// the API's own schema of the body.

const valid: AdjustmentValues = { user_id: "usr_1", amount: -120.5, reason: "Double-booked", period: "" };

describe("adjustmentProblems", () => {
  it.each<[Partial<AdjustmentValues>, Record<string, string>]>([
    [{}, {}],
    [{ user_id: null }, { user_id: "Pick who the adjustment is for." }],
    [{ amount: "" }, { amount: "Give the amount: positive pays more, negative takes back." }],
    [{ amount: 0 }, { amount: "Give an amount other than zero." }],
    [{ amount: 1.005 }, { amount: "Give the amount with at most 2 decimals (USD)." }],
    [{ reason: "  " }, { reason: "Say why: the person reads it with the line." }],
    [{ reason: "x".repeat(2001) }, { reason: "Keep the reason to 2,000 characters." }],
    [{ period: "2026-13" }, { period: "Give a period as 2026-11, 2026-Q4 or 2026, or leave it empty." }],
    [{ period: "2026-Q4" }, {}],
    [{ period: "2026" }, {}],
  ])("%o → %o", (change, problems) => {
    expect(adjustmentProblems({ ...valid, ...change }, "USD")).toEqual(problems);
  });

  it("finds a problem exactly when the API's schema refuses the body", () => {
    const values = fc.record({
      user_id: fc.constantFrom("usr_1", null),
      amount: fc.oneof(
        fc.constant(""),
        fc.constant(0),
        fc.integer({ min: -100_000, max: 100_000 }).map((n) => n / 100),
        fc.constantFrom(2.345, 1e-7, 5e-3),
      ),
      reason: fc.oneof(fc.constant(""), fc.constant(" "), fc.string({ maxLength: 20 }), fc.constant("y".repeat(2001))),
      period: fc.constantFrom("", " ", "2026-11", "2026-Q4", "2026", "2026-13", "0000", "26-Q1", "2026-Q5"),
    });
    fc.assert(
      fc.property(values, fc.constantFrom("USD", "JPY", "KWD"), (v, currency) => {
        const found = adjustmentProblems(v, currency);
        const parsed = CreateAdjustmentBody.safeParse(adjustmentBody("deal_1", v));
        // The schema, then the deal currency's decimals (API.md §15), as the service checks them.
        const taken = parsed.success && minorUnitProblems(currency, { amount: parsed.data.amount }).length === 0;
        expect(Object.keys(found).length === 0, JSON.stringify({ v, found, issues: parsed.error?.issues })).toBe(taken);
      }),
      { numRuns: 500 },
    );
  });
});
