import { z } from "zod";
import {
  COMMISSION_KINDS,
  COMMISSION_STATUSES,
  DEAL_STATUSES,
  DEAL_TYPES,
  PAYOUT_RUN_STATUSES,
  PLAN_PERIODS,
} from "../enums.js";
import { Currency, CurrencyAmount, MoneyOut, PeriodLabel, SignedMoney } from "../http/commission-fields.js";
import { DateOut, IsoDate, Timestamp } from "../http/date-fields.js";
import { commaList, Id, QueryBoolean } from "../http/input-fields.js";
import { PageQuery } from "../http/pagination.js";
import { ListUsersQuery, User } from "../users/index.js";
import { Explanation } from "./explanation.js";

export const RecalculationJobId = z
  .string()
  .nullable()
  .describe(
    "job_… when the recalculation this change started runs in the background (GET /jobs/{id}); null when it finished inline.",
  );

/** 204 with no body; a recalculation that went to the background is named in a header instead. */
export const NoContent = z
  .null()
  .describe("No body. `Recalculation-Job-Id: job_…` when the change started a background recalculation.");

export const CommissionKind = z.enum(COMMISSION_KINDS);
export const CommissionStatus = z.enum(COMMISSION_STATUSES);

export const Commission = z
  .object({
    id: z.string().describe("com_…"),
    deal_id: z.string().nullable().describe("null for a draw line (API.md §18)."),
    user_id: z.string(),
    plan_id: z.string().nullable(),
    plan_version: z.number().int().nullable(),
    spiff_id: z.string().nullable(),
    kind: CommissionKind,
    period: z.string().describe('"2026-Q3", "2026-07" or "2026"'),
    amount: MoneyOut,
    status: CommissionStatus,
    locked: z.boolean().describe("Lines of approved, disputed and paid deals never change."),
    explanation: Explanation,
    calculated_at: Timestamp,
    currency: z
      .string()
      .describe(
        "The line's currency: a plan line's is its plan's, a SPIFF line's its SPIFF's, an adjustment's its own " +
          "(API.md §15). Totals never add lines of two currencies.",
      ),
    payout_run_id: z
      .string()
      .nullable()
      .describe("prun_…: the draft or finalized payout run holding the line (API.md §13); null when in none."),
    draw_id: z
      .string()
      .nullable()
      .describe(
        "draw_…: a draw line's draw (API.md §18: kind draw, an advance > 0 or a recovery < 0); null on every other line.",
      ),
  })
  .meta({ id: "Commission" });
export type Commission = z.infer<typeof Commission>;

export const ListCommissionsQuery = PageQuery.extend({
  user_id: z.string().optional(),
  deal_id: z.string().optional(),
  status: commaList(CommissionStatus.options, "a line status").optional(),
  kind: commaList(CommissionKind.options, "a line kind").optional(),
  period: PeriodLabel.optional(),
  currency: z.string().optional().describe("The lines' currency, e.g. USD."),
  payout_run_id: z.string().optional().describe("prun_…: the lines of this payout run."),
  draw_id: z.string().optional().describe("draw_…: the lines of this draw (with kind=draw)."),
}).strict();
export type ListCommissionsQuery = z.infer<typeof ListCommissionsQuery>;

/** GET /commissions.csv: the list's filters; every matching line is in the file, so no page. */
export const ExportCommissionsQuery = ListCommissionsQuery.omit({ page: true, per_page: true }).strict();
export type ExportCommissionsQuery = z.infer<typeof ExportCommissionsQuery>;

/** POST /commissions/adjustments: a manual, signed line on one deal for one user (API.md §4). */
export const CreateAdjustmentBody = z.strictObject({
  deal_id: Id.describe("deal_… the adjustment belongs to (any status but rejected)."),
  user_id: Id.describe("usr_…: the deal's owner or one of its credited (split) users."),
  amount: SignedMoney.describe(
    "Signed: positive pays more, negative claws back; in `currency`, at most its minor units' decimals, not 0.",
  ),
  currency: Currency.optional().describe(
    "The line's currency (API.md §15). Default: the currency of the user's plan line on the deal, else the deal's.",
  ),
  reason: z.string().trim().min(1).max(2000).describe("Why; stored in the line's explanation with its author."),
  period: PeriodLabel.optional().describe(
    "YYYY-MM, YYYY-Qn or YYYY. Default: the period of the user's plan in force today (for the deal's currency), " +
      "else today's calendar quarter.",
  ),
});
export type CreateAdjustmentBody = z.infer<typeof CreateAdjustmentBody>;

/** A line the preview would create: a commission line without identity or state. */
export const PreviewLine = Commission.pick({
  user_id: true,
  plan_id: true,
  plan_version: true,
  spiff_id: true,
  kind: true,
  period: true,
  amount: true,
  currency: true,
  explanation: true,
}).meta({ id: "PreviewLine" });
export type PreviewLine = z.infer<typeof PreviewLine>;

/** Why credited users of a deal earn no plan line (§5 rule 1); null when every one has a plan in force. */
export const DealExplanation = z
  .object({
    summary: z.string().describe('e.g. "no plan in force for usr_…: no EUR→USD rate within 7 days before 2026-03-10"'),
    no_plan: z.array(z.object({ user_id: z.string(), reason: z.string() })),
  })
  .nullable()
  .describe("Set when a credited user has no plan in force (no plan line is written): who, and why.");
export type DealExplanation = z.infer<typeof DealExplanation>;

/** API.md §15: a currency pair a deal's lines found no usable exchange rate for. */
export const FxMissingPair = z
  .object({ from: z.string(), to: z.string(), close_date: DateOut })
  .meta({ id: "FxMissingPair" });

export function dealExplanation(noPlan: { user_id: string; reason: string }[]): DealExplanation {
  if (noPlan.length === 0) return null;
  const summary = noPlan.map((n) => `no plan in force for ${n.user_id}: ${n.reason}`).join("; ");
  return { summary, no_plan: noPlan };
}

export const Preview = z
  .object({
    lines: z.array(PreviewLine),
    total_commission: MoneyOut,
    explanation: DealExplanation,
  })
  .meta({ id: "CommissionPreview" });
export type Preview = z.infer<typeof Preview>;

/** A band of a plan: from this attainment (1.0 = 100 % of quota) on, this rate. */
export const PlanTier = z.object({ from_attainment: z.number(), rate: z.number() }).meta({ id: "PlanTier" });

const StatementCurrency = Currency.describe(
  "The currency of `totals` and `by_status`. Default: the person's plan's in the period (standard first, then the " +
    "latest), else the one most lines are in, else USD.",
);

export const StatementQuery = z.strictObject({
  period: PeriodLabel,
  currency: StatementCurrency.optional(),
  deal_columns: QueryBoolean.optional().describe(
    "CSV only: `true` adds the columns `opportunity_name,close_date,arr_amount,deal_currency,credit_percent` after " +
      "the contract's, so a person can reconcile each line by its deal's name (default false: the contract's columns).",
  ),
});
export type StatementQuery = z.infer<typeof StatementQuery>;

const Cents = z.number();

/** A statement's plan: its terms (of the version its latest line used) and the attainment in the period. */
export const StatementPlan = z
  .object({
    plan_id: z.string(),
    quota: MoneyOut.nullable(),
    attainment: MoneyOut.describe("Credit booked in the period (pending and locked), to the cent."),
    attainment_ratio: z
      .number()
      .nullable()
      .describe("attainment ÷ quota, 4 decimals (1.2 = 120 %); null without quota."),
    plan_name: z.string(),
    plan_version: z.number().int(),
    currency: z.string(),
    period_kind: z.enum(PLAN_PERIODS),
    tiers: z.array(PlanTier),
    current_rate: z.number().nullable().describe("Rate of the band reached, or base_rate."),
    cap_per_period: MoneyOut.nullable().describe("The plan's cap on its lines per period; null without a cap."),
    earned: MoneyOut.describe("Σ of this plan's lines in the period (pending and locked), to the cent."),
    cap_reached: z
      .boolean()
      .describe("The plan's lines in the period have reached its cap: further deals under it earn 0 this period."),
    next_tier: z
      .object({
        from_attainment: z.number(),
        rate: z.number(),
        arr_to_reach: Cents.describe(
          "Credit still needed to reach this tier, rounded up to the cent: ARR credited to this person (their split percent of a deal), so a deal credited at 50 % needs twice this much ARR.",
        ),
      })
      .nullable()
      .describe("null at the top or without tiers."),
  })
  .meta({ id: "StatementPlan" });

/** The deal of a statement line, as a person reconciles it: what it is, and their share of it. */
export const LineDeal = z
  .object({
    id: z.string(),
    opportunity_name: z.string(),
    close_date: DateOut,
    arr_amount: MoneyOut,
    currency: z.string(),
    deal_type: z.enum(DEAL_TYPES),
    status: z.enum(DEAL_STATUSES),
    credit_percent: z
      .number()
      .nullable()
      .describe("The line's user's split percent of the deal; null when they are not credited on it (an adjustment)."),
  })
  .meta({ id: "LineDeal" });

/** The payout run holding a line (API.md §13): a draft's lines are still approved, a finalized run's paid. */
export const LinePayoutRun = z
  .object({ id: z.string(), status: z.enum(PAYOUT_RUN_STATUSES), pay_date: DateOut })
  .meta({ id: "LinePayoutRun" });

export const StatementLine = Commission.extend({
  deal: LineDeal.nullable().describe("The line's deal; null for a draw line."),
  payout_run: LinePayoutRun.nullable().describe("The draft or finalized payout run holding the line; null when none."),
}).meta({ id: "StatementLine" });
export type StatementLine = z.infer<typeof StatementLine>;

const KindTotals = z.object({
  plan: Cents,
  spiff: Cents,
  override: Cents,
  adjustment: Cents,
  clawback: Cents,
  total: Cents,
});

export const Statement = z
  .object({
    user_id: z.string(),
    period: z.string(),
    currency: z.string().describe("The currency of `totals` and `by_status`."),
    plans: z.array(StatementPlan),
    lines: z
      .array(StatementLine)
      .describe("The period's lines of deals (and adjustments); draw lines are in draw_lines."),
    draw_lines: z
      .array(StatementLine)
      .describe("The period's draw lines (API.md §18; deal null): advances > 0 and recoveries < 0, by creation."),
    totals: KindTotals.extend({ draw: Cents }).describe(
      "Σ of the lines and draw lines in `currency` by kind, to the minor unit (override: a manager's override lines, " +
        "API.md §16; clawback: ≤ 0, API.md §14; draw: advances and recoveries, API.md §18); total includes draw.",
    ),
    totals_by_currency: z
      .array(KindTotals.extend({ currency: z.string(), draw: Cents }))
      .describe("The same sums per currency of the lines, sorted (draw: API.md §18)."),
    by_status: z
      .object({ pending: Cents, approved: Cents, paid: Cents })
      .describe("Σ of the lines in `currency` by status, to the minor unit."),
  })
  .meta({ id: "Statement" });
export type Statement = z.infer<typeof Statement>;

/** GET /users/statements: GET /users' filters and pages, and which statement of every person. */
export const TeamStatementsQuery = ListUsersQuery.extend({
  period: PeriodLabel.optional().describe("The same period for everyone. Give `period` or `on`, not both."),
  currency: StatementCurrency.optional(),
  on: IsoDate.optional().describe(
    "A date: each person's statement for the period of their plan in force on it (a monthly plan's month, a " +
      "quarterly plan's quarter, a yearly plan's year); without a plan on that date, its calendar quarter. " +
      "Default (neither given): today, in UTC.",
  ),
}).strict();
export type TeamStatementsQuery = z.infer<typeof TeamStatementsQuery>;

/** One person of GET /users/statements: who, and the numbers of their statement (without its lines). */
export const TeamStatement = Statement.pick({
  period: true,
  currency: true,
  plans: true,
  totals: true,
  totals_by_currency: true,
  by_status: true,
})
  .extend({
    user: User.pick({ id: true, name: true, role: true, manager_id: true, active: true }),
    deals: z.number().int().describe("Distinct deals of the person's plan lines in the period."),
  })
  .meta({ id: "TeamStatement" });
export type TeamStatement = z.infer<typeof TeamStatement>;

/** GET /users/{id}/periods: pages only. */
export const ListPeriodsQuery = PageQuery.strict();
export type ListPeriodsQuery = z.infer<typeof ListPeriodsQuery>;

/** A period a person has lines in (or their plan's current one): where a statement link can go. */
export const PeriodSummary = z
  .object({
    period: z.string().describe('"2026-Q3", "2026-07" or "2026"'),
    period_kind: z.enum(PLAN_PERIODS),
    from: DateOut.describe("The period's first day."),
    to: DateOut.describe("The period's last day."),
    current: z.boolean().describe("The period of the person's plan in force today (listed even without lines)."),
    lines: z.number().int().describe("The person's non-void lines in the period."),
    currency: z.string().describe("The currency `by_status` and `total` cover: the statement's default one."),
    by_status: Statement.shape.by_status,
    total: Cents.describe("Σ of the lines in `currency` (= GET /users/{id}/statement's totals.total)."),
    totals_by_currency: z.array(CurrencyAmount).describe("Σ of the lines per currency, sorted."),
  })
  .meta({ id: "PeriodSummary" });
export type PeriodSummary = z.infer<typeof PeriodSummary>;

/** GET /payouts: what finance still has to pay, by payee, period and currency. */
export const ListPayoutsQuery = PageQuery.extend({
  user_id: z.string().optional().describe("usr_…: only this payee's groups."),
  period: PeriodLabel.optional().describe("YYYY-MM, YYYY-Qn or YYYY: only this period's groups."),
}).strict();
export type ListPayoutsQuery = z.infer<typeof ListPayoutsQuery>;

export const PayoutGroup = z
  .object({
    user_id: z.string().describe("usr_… the lines are owed to."),
    user_name: z.string(),
    period: z.string().describe('The lines\' period: "2026-Q3", "2026-07" or "2026".'),
    currency: z.string().describe("The lines' own currency (API.md §15): a group never mixes currencies."),
    total: MoneyOut.describe("Σ of the group's approved, unpaid lines, exact to the cent."),
    line_count: z.number().int().describe("Approved, unpaid lines in the group."),
    deal_count: z.number().int().describe("Distinct deals those lines belong to."),
  })
  .meta({ id: "PayoutGroup" });
export type PayoutGroup = z.infer<typeof PayoutGroup>;
