import { z } from "zod";
import {
  OVERRIDE_LINE_IMPACT,
  PLAN_LINE_IMPACT,
  PlanTier,
  RecalculationJobId,
  SPIFF_LINE_IMPACT,
} from "../commissions/index.js";
import { CLAWBACK_PRORATIONS, PLAN_KINDS, PLAN_PERIODS, PLAN_STATUSES } from "../enums.js";
import { FxMaxAgeDays } from "../exchange-rates/index.js";
import {
  Attainment,
  ClawbackPercent,
  Currency,
  DealTypeMultipliers,
  Money,
  MoneyOut,
  Rate,
} from "../http/commission-fields.js";
import { DateOut, IsoDate, Timestamp } from "../http/date-fields.js";
import { Id } from "../http/input-fields.js";
import { listOf, PageQuery } from "../http/pagination.js";
import { ReportingLine } from "../users/index.js";

export const PlanStatus = z.enum(PLAN_STATUSES);
export const PlanPeriod = z.enum(PLAN_PERIODS);
// No component id: MCP input schemas inline it (a $ref there is one a client may not resolve).
export const PlanKind = z
  .enum(PLAN_KINDS)
  .describe("override: pays a manager on the credits below them (API.md §16); fixed.");

/** The most levels below a manager an override plan reaches. */
export const MAX_OVERRIDE_DEPTH = 5;

const OVERRIDE_LEVELS = "An override plan's rate per depth, by depth; null on a standard plan.";

export const OverrideLevel = z
  .object({
    depth: z.number().int().describe(`Levels below the manager: 1 (direct reports) to ${MAX_OVERRIDE_DEPTH}.`),
    rate: z.number(),
  })
  .meta({ id: "OverrideLevel" });
const OverrideLevelInput = z.strictObject({ depth: z.number().int().min(1).max(MAX_OVERRIDE_DEPTH), rate: Rate });

const CLAWBACK =
  "What a cancel or refund effective within window_days of close_date claws back of the lines earned under this " +
  "version (POST /deals/{id}/cancel, /refunds); null: nothing. Versioned like the other terms.";

const ClawbackPolicyFields = {
  window_days: z.number().int().min(1).max(3650).describe("Days after close_date, the boundary day included."),
  proration: z.enum(CLAWBACK_PRORATIONS).describe("none, or unserved_days (a cancel only)."),
};
export const ClawbackPolicy = z
  .object({ ...ClawbackPolicyFields, percent: z.number().describe("0–100, at most 4 decimals.") })
  .nullable()
  .describe(CLAWBACK)
  .meta({ id: "ClawbackPolicy" });
const ClawbackPolicyInput = z
  .strictObject({
    window_days: ClawbackPolicyFields.window_days,
    percent: ClawbackPercent,
    proration: ClawbackPolicyFields.proration,
  })
  .nullable()
  .describe(CLAWBACK);

export const CompPlan = z
  .object({
    id: z.string().describe("plan_…"),
    name: z.string(),
    description: z.string().nullable(),
    status: PlanStatus,
    kind: PlanKind,
    currency: z.string(),
    period: PlanPeriod,
    quota: MoneyOut.nullable().describe("Per period, never pro-rated; required (> 0) with tiers."),
    base_rate: z.number().nullable().describe("Applies to all credit when the plan has no tiers."),
    tiers: z
      .array(PlanTier)
      .describe("Graduated bands of quota attainment, ascending, first at 0; empty when base_rate applies."),
    deal_type_multipliers: z.record(z.string(), z.number()),
    min_deal_amount: MoneyOut.nullable(),
    cap_per_period: MoneyOut.nullable(),
    override_levels: z.array(OverrideLevel).nullable().describe(OVERRIDE_LEVELS),
    effective_from: DateOut,
    effective_to: DateOut.nullable(),
    clawback: ClawbackPolicy,
    fx_max_age_days: FxMaxAgeDays,
    version: z.number().int().describe("Raised when the terms of an active plan change; lines keep theirs."),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "CompPlan" });
export type CompPlan = z.infer<typeof CompPlan>;

export const RetroactiveAdjustments = z
  .object({
    count: z.number().int().describe("Adjustment lines written."),
    sum: MoneyOut.describe("Σ of their amounts (signed): the impact's locked_delta."),
  })
  .describe('Only with `"retroactive": true`.');

export const CompPlanWritten = CompPlan.extend({
  recalculation_job_id: RecalculationJobId,
  retroactive_adjustments: RetroactiveAdjustments.optional(),
}).meta({ id: "CompPlanWritten" });
export type CompPlanWritten = z.infer<typeof CompPlanWritten>;

const TierInput = z.strictObject({ from_attainment: Attainment, rate: Rate });

const writable = {
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).nullable(),
  status: PlanStatus,
  currency: Currency,
  period: PlanPeriod,
  quota: Money.nullable(),
  base_rate: Rate.nullable(),
  tiers: z.array(TierInput).max(50).nullable(),
  deal_type_multipliers: DealTypeMultipliers,
  min_deal_amount: Money.nullable().describe(
    "In the plan's currency, with at most its minor-unit decimals (ISO 4217).",
  ),
  cap_per_period: Money.nullable(),
  override_levels: z
    .array(OverrideLevelInput)
    .max(MAX_OVERRIDE_DEPTH)
    .nullable()
    .describe("Override plans only: at least one level, each depth once."),
  effective_from: IsoDate,
  effective_to: IsoDate.nullable(),
  clawback: ClawbackPolicyInput,
  fx_max_age_days: FxMaxAgeDays,
};

export const CreatePlanBody = z.strictObject({
  ...writable,
  description: writable.description.optional(),
  status: writable.status.default("active"),
  kind: PlanKind.default("standard"),
  currency: writable.currency.default("USD"),
  quota: writable.quota.optional(),
  base_rate: writable.base_rate.optional(),
  tiers: writable.tiers.optional(),
  deal_type_multipliers: writable.deal_type_multipliers.default({}),
  min_deal_amount: writable.min_deal_amount.optional(),
  cap_per_period: writable.cap_per_period.optional(),
  override_levels: writable.override_levels.optional(),
  effective_to: writable.effective_to.optional(),
  clawback: writable.clawback.optional(),
  fx_max_age_days: writable.fx_max_age_days.default(7),
});
export type CreatePlanBody = z.infer<typeof CreatePlanBody>;

export const UpdatePlanBody = z
  .strictObject({
    ...writable,
    kind: PlanKind,
    retroactive: z
      .boolean()
      .describe(
        "true: also correct locked history — one approved, locked adjustment line per locked line whose amount the " +
          "new terms change (amount = new − old), in the same transaction (API.md §12); a status change alone corrects " +
          "nothing. Default false: only pending " +
          "lines are recalculated.",
      ),
  })
  .partial()
  .meta({ id: "UpdateCompPlan" });
export type UpdatePlanBody = z.infer<typeof UpdatePlanBody>;

export const PlanImpactQuery = PageQuery.strict();
export type PlanImpactQuery = z.infer<typeof PlanImpactQuery>;

const BeforeAfter = z.object({ before: MoneyOut, after: MoneyOut });

const ImpactLineFields = {
  line_id: z
    .string()
    .nullable()
    .describe(
      "com_… of the stored line (a locked line: the one a retroactive adjustment corrects); null for a new line.",
    ),
  deal_id: z.string(),
  opportunity_name: z
    .string()
    .describe("The deal's name: what a person knows it by (deal_id stays for links and copy)."),
  close_date: DateOut.describe("The deal's close date."),
  user_id: z.string(),
  period: z.string().describe("The line's period after the change (a removed line: before it)."),
  status: z
    .string()
    .describe("pending: the change recalculates it. approved or paid: locked; only a retroactive apply corrects it."),
  locked: z.boolean(),
  before: MoneyOut.describe("What the line pays now (a locked line: its amount plus earlier retroactive corrections)."),
  after: MoneyOut.describe("What it would pay under the new terms (0 for a line the change removes)."),
  delta: MoneyOut.describe("after − before."),
};

/** One changed line; its kind says which computation its explanations hold. */
export const PlanImpactLine = z
  .discriminatedUnion("kind", [
    z.object({ ...ImpactLineFields, kind: z.literal("plan"), ...PLAN_LINE_IMPACT }),
    z.object({ ...ImpactLineFields, kind: z.literal("spiff"), ...SPIFF_LINE_IMPACT }),
    z.object({ ...ImpactLineFields, kind: z.literal("override"), ...OVERRIDE_LINE_IMPACT }),
  ])
  .meta({ id: "PlanImpactLine" });
export type PlanImpactLine = z.infer<typeof PlanImpactLine>;

export const PlanImpact = z
  .object({
    plan_id: z.string(),
    from_version: z.number().int().describe("The plan's version now."),
    to_version: z.number().int().describe("The version the change would create (equal when it keeps the version)."),
    summary: z.object({
      users: z.number().int().describe("Users with at least one changed line."),
      deals: z.number().int().describe("Deals with at least one changed line."),
      lines: z.number().int().describe("Changed lines (pending and locked): the total of `lines`."),
      pending_delta: MoneyOut.describe("Σ delta of pending lines: what applying the change moves."),
      locked_delta: MoneyOut.describe("Σ delta of locked lines: what a retroactive apply writes as adjustments."),
    }),
    users: z
      .array(
        z.object({
          user_id: z.string(),
          name: z.string(),
          periods: z.array(
            z.object({
              period: z.string(),
              pending: BeforeAfter.describe("Σ of the user's pending lines of the plan's change in the period."),
              locked: BeforeAfter.describe("Σ of the user's locked lines of the plan in the period, as if unlocked."),
            }),
          ),
        }),
      )
      .describe("Each user with a changed line, by user id; each period with a changed line, in order."),
    lines: listOf(PlanImpactLine).describe("Changed lines, largest |delta| first; paginated by page and per_page."),
  })
  .meta({ id: "PlanImpact" });
export type PlanImpact = z.infer<typeof PlanImpact>;

/** POST /users/{id}/reporting-lines/impact (API.md §16): §12's impact, for the override lines a reporting change moves. */
export const ReportingImpact = PlanImpact.omit({ plan_id: true, from_version: true, to_version: true })
  .extend({
    user_id: z.string(),
    lines_before: z.array(ReportingLine).describe("The user's reporting lines now."),
    lines_after: z.array(ReportingLine).describe("What the change would leave (equal: it changes nothing)."),
  })
  .meta({ id: "ReportingImpact" });
export type ReportingImpact = z.infer<typeof ReportingImpact>;

/** One version's terms: frozen once a line uses them (a draft's current version follows its edits until then). */
export const PlanVersion = CompPlan.pick({
  currency: true,
  period: true,
  quota: true,
  base_rate: true,
  tiers: true,
  deal_type_multipliers: true,
  min_deal_amount: true,
  cap_per_period: true,
  override_levels: true,
  effective_from: true,
  effective_to: true,
  clawback: true,
  fx_max_age_days: true,
})
  .extend({
    plan_id: z.string(),
    version: z.number().int(),
    created_at: Timestamp,
  })
  .meta({ id: "CompPlanVersion" });
export type PlanVersion = z.infer<typeof PlanVersion>;

export const ListPlanVersionsQuery = PageQuery.strict();
export type ListPlanVersionsQuery = z.infer<typeof ListPlanVersionsQuery>;

export const ListPlansQuery = PageQuery.extend({
  status: PlanStatus.optional(),
  kind: z.enum(PLAN_KINDS).optional(),
}).strict();
export type ListPlansQuery = z.infer<typeof ListPlansQuery>;

export const Assignment = z
  .object({
    id: z.string().describe("asg_…"),
    plan_id: z.string(),
    user_id: z.string(),
    effective_from: DateOut,
    effective_to: DateOut.nullable(),
    quota_override: MoneyOut.nullable().describe("Replaces the plan's quota for this user."),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "PlanAssignment" });
export type Assignment = z.infer<typeof Assignment>;

export const AssignmentWritten = Assignment.extend({ recalculation_job_id: RecalculationJobId }).meta({
  id: "PlanAssignmentWritten",
});
export type AssignmentWritten = z.infer<typeof AssignmentWritten>;

const assignmentWritable = {
  effective_from: IsoDate,
  effective_to: IsoDate.nullable(),
  quota_override: Money.nullable(),
};

export const CreateAssignmentBody = z.strictObject({
  user_id: Id,
  ...assignmentWritable,
  effective_to: assignmentWritable.effective_to.optional(),
  quota_override: assignmentWritable.quota_override.optional(),
});
export type CreateAssignmentBody = z.infer<typeof CreateAssignmentBody>;

export const UpdateAssignmentBody = z.strictObject(assignmentWritable).partial();
export type UpdateAssignmentBody = z.infer<typeof UpdateAssignmentBody>;

export const ListAssignmentsQuery = PageQuery.extend({
  user_id: z.string().optional().describe("Only this user's assignments."),
}).strict();
export type ListAssignmentsQuery = z.infer<typeof ListAssignmentsQuery>;

export const ListAllAssignmentsQuery = ListAssignmentsQuery.extend({
  plan_id: z.string().optional().describe("Only this plan's assignments."),
}).strict();
export type ListAllAssignmentsQuery = z.infer<typeof ListAllAssignmentsQuery>;
