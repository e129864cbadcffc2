import { z } from "zod";
import { Commission, DealExplanation, FxMissingPair, PreviewLine, RecalculationJobId } from "../commissions/index.js";
import { DEAL_STATUSES } from "../enums.js";
import { Currency, CurrencyAmount, DealType, Money, MoneyOut, Percent, QueryMoney } from "../http/commission-fields.js";
import { DateOut, IsoDate, Timestamp, TimestampInput } from "../http/date-fields.js";
import { commaList, Id, QueryBoolean } from "../http/input-fields.js";
import { PageQuery } from "../http/pagination.js";
import { eq, fx, parse, plain, plus, ZERO } from "../money/index.js";

export const DealStatus = z.enum(DEAL_STATUSES);
export type DealStatus = z.infer<typeof DealStatus>;

/** API.md §20 (b): whose lines a deal's total_commission sums for this reader. */
export const TotalCommissionScope = z
  .enum(["visible", "deal"])
  .describe(
    "visible: total_commission sums only the lines you see (a rep's own, a manager's team's); deal: all the " +
      "deal's lines (keys, admins, finance). Sorting uses the same sum.",
  )
  .meta({ id: "TotalCommissionScope" });
export type TotalCommissionScope = z.infer<typeof TotalCommissionScope>;

export const Deal = z
  .object({
    id: z.string().describe("deal_…"),
    external_id: z.string().nullable().describe("Your CRM's id (unique)."),
    opportunity_name: z.string(),
    arr_amount: MoneyOut,
    currency: z.string(),
    deal_type: DealType,
    close_date: DateOut,
    owner_id: z.string(),
    splits: z
      .array(z.object({ user_id: z.string(), percent: z.number() }))
      .describe("Who is credited and how much; defaults to the owner at 100 and follows owner_id until given."),
    status: DealStatus,
    total_commission: MoneyOut.describe("Σ of the non-void lines in total_commission_currency (see the scope)."),
    total_commission_scope: TotalCommissionScope,
    total_commission_currency: z
      .string()
      .describe("The lines' one currency; none: the deal's; several: the owner's plan line's, else the deal's."),
    commission_totals: z
      .array(CurrencyAmount)
      .describe("Σ of the non-void lines per currency, sorted (API.md §15: no sum across currencies)."),
    rejection_reason: z.string().nullable(),
    approved_at: Timestamp.nullable(),
    paid_at: Timestamp.nullable(),
    contract_start: DateOut.nullable(),
    contract_end: DateOut.nullable(),
    cancelled_at: Timestamp.nullable(),
    cancel_reason: z.string().nullable(),
    cancel_effective_date: DateOut.nullable(),
    refunded_amount: MoneyOut.describe("Σ of the deal's refunds; 0 when none."),
    created_at: Timestamp,
    updated_at: Timestamp,
    explanation: DealExplanation,
    fx_missing: z
      .array(FxMissingPair)
      .describe("Pairs with no usable exchange rate: their lines wait for one; approving is 409 until then."),
  })
  .meta({ id: "Deal" });
export type Deal = z.infer<typeof Deal>;

export const DealDetail = Deal.extend({
  people: z
    .array(z.object({ user_id: z.string(), name: z.string() }))
    .describe("The owner, then each credited user, by name."),
  commissions: z.array(Commission).describe("The deal's lines (plan, spiff, adjustment)."),
  recalculation_job_id: RecalculationJobId,
}).meta({ id: "DealDetail" });
export type DealDetail = z.infer<typeof DealDetail>;

const SplitInput = z.strictObject({ user_id: Id, percent: Percent });

/** Percents sum to exactly 100 (compared as decimals) and each user appears once. */
const Splits = z
  .array(SplitInput)
  .min(1, "must list at least one user")
  .max(50, "must list at most 50 users")
  .superRefine((splits, ctx) => {
    const seen = new Map<string, number>();
    splits.forEach((s, i) => {
      const first = seen.get(s.user_id);
      if (first !== undefined) {
        ctx.addIssue({ code: "custom", path: [i, "user_id"], message: `repeats splits[${first}].user_id` });
      } else seen.set(s.user_id, i);
    });
    const sum = splits.reduce((acc, s) => plus(acc, parse(s.percent)), ZERO);
    if (!eq(sum, fx(100))) {
      ctx.addIssue({ code: "custom", message: `percents must sum to exactly 100 (they sum to ${plain(sum)})` });
    }
  });

const writable = {
  external_id: z.string().trim().min(1).max(255).nullable(),
  opportunity_name: z.string().trim().min(1).max(500),
  arr_amount: Money,
  currency: Currency,
  deal_type: DealType,
  close_date: IsoDate,
  owner_id: Id,
  splits: Splits.nullable().describe("null: back to the default (the owner at 100, following owner_id)."),
  contract_start: IsoDate.nullable().describe("With contract_end (after it) or neither; editable in every status."),
  contract_end: IsoDate.nullable(),
};

export const CreateDealBody = z.strictObject({
  ...writable,
  external_id: writable.external_id.optional(),
  currency: writable.currency.default("USD"),
  deal_type: writable.deal_type.default("new_business"),
  splits: writable.splits.optional(),
  contract_start: writable.contract_start.optional(),
  contract_end: writable.contract_end.optional(),
});
export type CreateDealBody = z.infer<typeof CreateDealBody>;

export const UpdateDealBody = z.strictObject(writable).partial();
export type UpdateDealBody = z.infer<typeof UpdateDealBody>;

export const ExternalIdParams = z.strictObject({ external_id: Id });

export const BulkItem = CreateDealBody.extend({ external_id: z.string().trim().min(1).max(255) });
export type BulkItem = z.infer<typeof BulkItem>;

const bulkOf = <T extends z.ZodType>(item: T) =>
  z.array(item).min(1, "must hold at least one deal").max(1000, "must hold at most 1000 deals");

export const BulkBody = z.strictObject({ deals: bulkOf(BulkItem) });
export type BulkBody = z.infer<typeof BulkBody>;
/** BulkBody but its deals' contents: the route checks those one deal at a time (http/body-in-pieces.ts). */
export const BulkEnvelope = z.strictObject({ deals: bulkOf(z.unknown()) });

export const BulkResult = z
  .object({
    data: z.array(Deal),
    meta: z.object({
      created: z.number().int(),
      updated: z.number().int(),
      unchanged: z.number().int(),
      recalculation_job_id: RecalculationJobId,
    }),
  })
  .meta({ id: "DealBulkResult" });
export type BulkResult = z.infer<typeof BulkResult>;

export const PreviewBody = CreateDealBody.extend({
  plan_id: Id.optional().describe("Try this plan (a draft too) for every credited user."),
  deal_id: Id.optional().describe(
    "Price an edit of this stored deal before it is saved: its stored values leave the periods, these take its " +
      "place in their order (as PATCH would). 422 when you do not see it.",
  ),
});
export type PreviewBody = z.infer<typeof PreviewBody>;

export const DEAL_SORTS = ["created_at", "close_date", "arr_amount", "total_commission"] as const;
const SortValue = z.enum([...DEAL_SORTS, ...DEAL_SORTS.map((s) => `-${s}` as const)]);

export const ListDealsQuery = PageQuery.extend({
  status: commaList(DealStatus.options, "a deal status").optional(),
  owner_id: z.string().optional(),
  close_date_from: IsoDate.optional().describe("close_date ≥ this (inclusive)."),
  close_date_to: IsoDate.optional().describe("close_date ≤ this (inclusive)."),
  updated_since: TimestampInput.optional().describe("updated_at ≥ this (inclusive)."),
  external_id: z.string().trim().min(1).max(255).optional().describe("Exact match, trimmed like the field."),
  q: z.string().min(1).max(200).optional().describe("opportunity_name contains this, case-insensitive."),
  deal_type: commaList(DealType.options, "a deal type").optional(),
  arr_amount_min: QueryMoney.optional().describe("arr_amount ≥ this (inclusive); money ≥ 0, at most 3 decimals."),
  arr_amount_max: QueryMoney.optional().describe("arr_amount ≤ this (inclusive); at least arr_amount_min."),
  plan_id: Id.optional().describe(
    "Deals with a non-void plan line of this comp plan (any version): deals it credits someone on.",
  ),
  fx_missing: QueryBoolean.optional().describe("true: fx_missing is not empty; false: it is."),
  sort: SortValue.default("-created_at").describe("A field, prefixed - for descending; ties break on id the same way."),
})
  .strict()
  .superRefine((q, ctx) => {
    if (
      q.arr_amount_min !== undefined &&
      q.arr_amount_max !== undefined &&
      Number(q.arr_amount_min) > Number(q.arr_amount_max)
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["arr_amount_max"],
        message: `must be at least arr_amount_min (${q.arr_amount_min})`,
      });
    }
  });
export type ListDealsQuery = z.infer<typeof ListDealsQuery>;

export const RejectDealBody = z.strictObject({
  reason: z.string().trim().min(1).max(2000).describe("Why the deal is rejected; shown as rejection_reason."),
});
export type RejectDealBody = z.infer<typeof RejectDealBody>;

export const DealHistoryQuery = PageQuery.strict();
export type DealHistoryQuery = z.infer<typeof DealHistoryQuery>;

// ---- API.md §14: cancellations, refunds and clawbacks ----

export const ClawbackSummary = z
  .array(
    z.object({
      user_id: z.string(),
      plan_id: z.string().nullable().describe("The plan the clawed lines were earned under; null: none."),
      currency: z
        .string()
        .describe("The clawed lines' currency (a row per currency: API.md §15); the deal's when nothing was earned."),
      amount: MoneyOut.describe("The clawback line's amount (≤ 0) in `currency`; 0 when none is written."),
      note: z.string().describe("What was clawed back and how, or why nothing was (window, policy, nothing earned)."),
    }),
  )
  .describe("One row per person, plan and currency with lines on the deal.")
  .meta({ id: "ClawbackSummary" });

const EffectiveDate = IsoDate.describe("On or after the deal's close_date.");

export const CancelDealBody = z.strictObject({
  reason: z.string().trim().min(1).max(2000).describe("Why the deal is cancelled; shown as cancel_reason."),
  effective_date: EffectiveDate,
});
export type CancelDealBody = z.infer<typeof CancelDealBody>;

export const DealCancelled = DealDetail.extend({ clawback_summary: ClawbackSummary }).meta({ id: "DealCancelled" });
export type DealCancelled = z.infer<typeof DealCancelled>;

export const RefundBody = z.strictObject({
  amount: Money.refine((s) => Number(s) > 0, { message: "must be greater than 0" }).describe(
    "In the deal's currency, > 0; all refunds together at most arr_amount.",
  ),
  effective_date: EffectiveDate,
  reason: z.string().trim().min(1).max(2000).nullable().optional().describe("Why; optional."),
});
export type RefundBody = z.infer<typeof RefundBody>;

export const Refund = z
  .object({
    id: z.string().describe("rfd_…"),
    deal_id: z.string(),
    amount: MoneyOut,
    effective_date: DateOut,
    reason: z.string().nullable(),
    clawback_line_ids: z.array(z.string()).describe("com_… of the clawback lines this refund wrote (maybe none)."),
    created_at: Timestamp,
  })
  .meta({ id: "Refund" });
export type Refund = z.infer<typeof Refund>;

export const ListRefundsQuery = PageQuery.strict();
export type ListRefundsQuery = z.infer<typeof ListRefundsQuery>;

export const ClawbackPreviewBody = z
  .strictObject({
    type: z.enum(["cancel", "refund"]),
    effective_date: EffectiveDate,
    amount: RefundBody.shape.amount
      .optional()
      .describe("The refund's amount: required for a refund, refused for a cancel."),
  })
  .superRefine((b, ctx) => {
    if (b.type === "refund" && b.amount === undefined) {
      ctx.addIssue({ code: "custom", path: ["amount"], message: "is required for a refund" });
    }
    if (b.type === "cancel" && b.amount !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["amount"],
        message: "is only for a refund (a cancel claws back by its policy)",
      });
    }
  });
export type ClawbackPreviewBody = z.infer<typeof ClawbackPreviewBody>;

export const ClawbackPreview = z
  .object({ clawback_summary: ClawbackSummary, lines: z.array(PreviewLine) })
  .meta({ id: "ClawbackPreview" });
export type ClawbackPreview = z.infer<typeof ClawbackPreview>;
