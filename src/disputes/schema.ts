import { z } from "zod";
import { DISPUTE_AMOUNT_SCOPES, DISPUTE_OUTCOMES, DISPUTE_REASONS, DISPUTE_STATUSES } from "../enums.js";
import { Money, MoneyOut } from "../http/commission-fields.js";
import { Timestamp } from "../http/date-fields.js";
import { commaList } from "../http/input-fields.js";
import { PageQuery } from "../http/pagination.js";

export const DisputeReason = z.enum(DISPUTE_REASONS);
export const DisputeOutcome = z.enum(DISPUTE_OUTCOMES);
export const DisputeStatus = z.enum(DISPUTE_STATUSES);
export const DisputeAmountScope = z
  .enum(DISPUTE_AMOUNT_SCOPES)
  .describe(
    "Whose lines expected_amount and resolved_amount total, for every reader: user — the opener's (a rep or " +
      "manager; the adjustment goes to them); deal — the deal's total_commission (an admin or a key; to the owner).",
  )
  .meta({ id: "DisputeAmountScope" });

export const Dispute = z
  .object({
    id: z.string().describe("dsp_…"),
    deal_id: z.string(),
    opened_by_key_id: z.string().nullable().describe("The API key that opened it (null: the owner CLI)."),
    reason: DisputeReason,
    description: z.string().nullable(),
    amount_scope: DisputeAmountScope,
    scope_user_id: z.string().nullable().describe("amount_scope user: whose lines (the opener); else null."),
    expected_amount: MoneyOut.nullable().describe(
      "The total (amount_scope) the disputer expects, in the deal's total_commission_currency for that scope.",
    ),
    status: DisputeStatus,
    outcome: DisputeOutcome.nullable(),
    resolution_note: z.string().nullable(),
    resolved_amount: MoneyOut.nullable().describe("The total (amount_scope) the admin accepted (null: unchanged)."),
    created_at: Timestamp,
    resolved_at: Timestamp.nullable(),
  })
  .meta({ id: "Dispute" });
export type Dispute = z.infer<typeof Dispute>;

export const OpenDisputeBody = z.strictObject({
  reason: DisputeReason,
  description: z.string().trim().min(1).max(5000).nullable().optional(),
  expected_amount: Money.nullable().optional(),
});
export type OpenDisputeBody = z.infer<typeof OpenDisputeBody>;

export const ResolveDisputeBody = z.strictObject({
  outcome: DisputeOutcome,
  resolved_amount: Money.optional().describe(
    "The new total of the dispute's amount_scope, in that total's currency (the deal's total_commission_currency " +
      "as its opener sees it; at most its minor-unit decimals): " +
      "required for partially_approved; for approved it defaults to " +
      "expected_amount; not allowed for denied.",
  ),
  note: z.string().trim().min(1).max(5000).optional(),
});
export type ResolveDisputeBody = z.infer<typeof ResolveDisputeBody>;

export const ListDisputesQuery = PageQuery.extend({
  status: commaList(DisputeStatus.options, "a dispute status").optional(),
  deal_id: z.string().optional(),
}).strict();
export type ListDisputesQuery = z.infer<typeof ListDisputesQuery>;
