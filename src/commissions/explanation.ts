import { z } from "zod";
import { DateOut } from "../http/date-fields.js";

/**
 * The explanation of each line kind (API.md §5 rule 8), as the engine (engine/explain.ts,
 * engine/spiffs.ts) and lines/adjustments.ts build them. Every number but `amount` is an exact decimal
 * string. Loose objects: a field added to an explanation is never dropped by the response serializer.
 */
const Decimal = z.string().describe("Exact decimal");
/** An exact value that may not terminate as a decimal: "1094.565" or "25175/23" in lowest terms. */
const Exact = z.string().describe('Exact decimal, or "n/d" when it does not terminate');

/** A converted line's conversion (API.md §15): rate, credit and what the line's other figures are in. */
export const FxExplanation = z
  .object({
    from: z.string(),
    to: z.string(),
    rate: Exact.describe("1 `from` = rate `to`"),
    rate_date: DateOut,
    base: z.string(),
    credit_in_deal_currency: Decimal,
    credit: Exact.describe("In `to`, never rounded"),
  })
  .meta({ id: "FxExplanation" });

export const PlanExplanation = z
  .looseObject({
    summary: z.string(),
    plan_id: z.string(),
    plan_version: z.number().int(),
    period: z.string(),
    quota: Decimal.nullable(),
    credit: Decimal,
    prior_attainment: Decimal,
    bands: z.array(
      z.object({ from: Decimal, to: Decimal.nullable(), rate: Decimal, amount: Decimal, commission: Decimal }),
    ),
    multiplier: Decimal,
    cap: z.object({ limit: Decimal, before: Decimal, applied: z.boolean() }).nullable(),
    unrounded: Decimal,
    min_deal_amount: Decimal.optional().describe("Only on lines zeroed because the deal is below the plan minimum."),
    fx: FxExplanation.optional().describe("Only on converted lines: credit, attainment, bands, unrounded in `to`."),
    amount: z.number(),
  })
  .meta({ id: "PlanExplanation" });

export const SpiffExplanation = z
  .looseObject({
    summary: z.string(),
    spiff_id: z.string(),
    spiff_name: z.string(),
    criteria_met: z.array(z.string()),
    payout: z.union([
      z.object({ type: z.literal("flat"), amount: Decimal }),
      z.object({ type: z.literal("rate"), rate: Decimal }),
    ]),
    credit: Decimal,
    percent: Decimal,
    period: z.string(),
    unrounded: Decimal,
    fx: FxExplanation.optional().describe("Only on converted lines."),
    amount: z.number(),
  })
  .meta({ id: "SpiffExplanation" });

/** A manager's override on one deal (API.md §16): per depth below them, who was credited, capped, times the rate. */
export const OverrideExplanation = z
  .looseObject({
    summary: z.string(),
    plan_id: z.string(),
    plan_version: z.number().int(),
    period: z.string(),
    levels: z.array(
      z.object({
        depth: z.number().int().describe("Levels below the manager on the deal's close_date (1 = direct reports)."),
        rate: Decimal,
        users: z
          .array(z.object({ user_id: z.string(), credit: Decimal }))
          .describe("The credited users exactly `depth` levels below the manager on close_date."),
        credit: Decimal.describe("Σ of their credits, capped at the deal's arr_amount (so a split counts once)."),
        commission: Decimal.describe("credit × rate, unrounded."),
      }),
    ),
    fx: FxExplanation.nullable().describe("null when the deal and the plan share a currency."),
    unrounded: Decimal,
    amount: z.number(),
  })
  .meta({ id: "OverrideExplanation" });

export const AdjustmentExplanation = z
  .looseObject({
    summary: z.string(),
    reason: z.string(),
    author: z.object({
      key_id: z.string().nullable().describe("null for the owner CLI"),
      name: z.string(),
    }),
    dispute: z
      .object({ id: z.string(), outcome: z.string(), previous_total: Decimal, accepted_total: Decimal })
      .optional()
      .describe("Set on a dispute resolution's line; totals of the dispute's amount_scope."),
    retroactive: z
      .object({
        plan_id: z.string(),
        from_version: z.number().int(),
        to_version: z.number().int(),
        original_line_id: z.string().describe("com_… of the locked line this corrects."),
        before: z.object({ amount: Decimal, explanation: z.unknown() }),
        after: z.object({ amount: Decimal, explanation: z.unknown() }),
      })
      .optional()
      .describe(
        "Set on a retroactive correction (PATCH /comp-plans/{id} with retroactive): the versions, the line it " +
          "corrects, and both computations (before: its amount plus earlier corrections, and its stored explanation).",
      ),
    period: z.string(),
    amount: z.number(),
  })
  .meta({ id: "AdjustmentExplanation" });

/** A clawback line's computation (API.md §14): T = basis × percent/100 × factor, less what was clawed back already. */
export const ClawbackExplanation = z
  .looseObject({
    summary: z.string(),
    reason: z
      .string()
      .nullable()
      .optional()
      .describe("The cancellation's or refund's reason as the admin wrote it (null in a preview)."),
    basis: Decimal.describe("E: the user's non-void plan, SPIFF and override lines on the deal under this plan."),
    percent: Decimal.describe("The policy's percent (of the clawed lines' plan version)."),
    factor: z.object({
      kind: z.enum(["full", "unserved_days", "refunded"]),
      numerator: Decimal,
      denominator: Decimal,
      value: Decimal.describe("numerator ÷ denominator to 10 decimals (the amount uses the exact fraction)."),
    }),
    window: z.object({
      close_date: DateOut,
      effective_date: DateOut,
      days: z.number().int(),
      window_days: z.number().int(),
    }),
    effective_date: DateOut,
    trigger: z.object({ type: z.enum(["cancel", "refund"]), refund_id: z.string().nullable() }),
    target: Decimal.describe(
      "round(T): what the clawbacks of this user, deal and plan add up to after this one (≥ 0).",
    ),
    already_clawed_back: Decimal.describe("|Σ| of the earlier clawback lines of this user, deal and plan."),
    line_ids: z.array(z.string()).describe("The lines E sums."),
    amount: z.number(),
  })
  .meta({ id: "ClawbackExplanation" });

/**
 * Why a credit earns no line (API.md §5 rule 1). Closed, unlike the stored kinds: a generated client
 * then tells it from a plan or SPIFF computation by a property (`"reason" in e`, `"bands" in e`); an open
 * object would match any property test.
 */
export const NoPlanExplanation = z
  .object({ summary: z.string(), reason: z.string() })
  .meta({ id: "NoPlanExplanation" });

/** The line's `kind` says which one (the OpenAPI document states it as a union discriminated by kind). */
/** A draw line's (API.md §18): an advance (> 0) when earnings fell short, or a recovery (< 0) of the balance. */
export const DrawExplanation = z
  .looseObject({
    summary: z.string(),
    draw_id: z.string(),
    period: z.string(),
    amount: Decimal.describe("The draw's guaranteed amount per period"),
    earned: Decimal.nullable().describe("E of the period(s) this run settled; null for a recovery after the last one"),
    advance: Decimal.optional(),
    recovery: Decimal.optional(),
    balance_before: Decimal,
    balance_after: Decimal,
  })
  .meta({ id: "DrawExplanation" });

export const Explanation = z
  .union([
    PlanExplanation,
    SpiffExplanation,
    OverrideExplanation,
    AdjustmentExplanation,
    ClawbackExplanation,
    DrawExplanation,
  ])
  .describe("How the amount was reached (API.md §5 rule 8): its shape follows the line's kind.");

/**
 * A plan change's before and after of one line whose stored explanation is `stored` (API.md §12): its
 * computation, or why it would earn nothing. Per kind, so a generated client narrows them by the line's kind.
 */
function impactExplanations<E extends z.ZodObject>(stored: E) {
  return {
    explanation_before: z
      .union([stored, NoPlanExplanation])
      .nullable()
      .describe(
        "The computation behind `before`: the stored explanation, or for a locked line corrected retroactively " +
          "the latest correction's (then {summary, reason} when that correction brought it to 0.00 because it " +
          "no longer earns); null for a new line.",
      ),
    explanation_after: z
      .union([stored, NoPlanExplanation])
      .nullable()
      .describe("The computation under the new terms, or {summary, reason} when it would earn nothing."),
  };
}

export const PLAN_LINE_IMPACT = impactExplanations(PlanExplanation);
export const SPIFF_LINE_IMPACT = impactExplanations(SpiffExplanation);
export const OVERRIDE_LINE_IMPACT = impactExplanations(OverrideExplanation);
