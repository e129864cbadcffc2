import { dealAfter, ID } from "./world.js";

/*
 * API.md §14 in the examples' world: Ana's $48,000 deal (plan line 3,840.00 + SPIFF 500.00 = E 4,340.00; contract
 * 2026-09-01 → 2027-09-01, 365 days) under a 180-day, 100 %, unserved_days policy. Cancelled effective 2026-12-01
 * (109 days after close; 274 days unserved): 4,340 × 274/365 = 3,257.97… → −3,257.97. A refund of 12,000.00
 * effective 2026-10-01 instead: 4,340 × 12,000/48,000 = −1,085.00.
 */

const CANCELLED_AT = "2026-12-02T10:15:00.000Z";

const REASON = "Customer churned in month 3";
const NOTE =
  "Cancellation effective 2026-12-01: 4,340.00 earned under plan Enterprise AE 2026 × 100% × 274 unserved of 365 " +
  "contract days = 3,257.97 → -3,257.97";

const clawbackLine = {
  id: ID.clawbackLine,
  deal_id: ID.deal,
  user_id: ID.ana,
  plan_id: ID.plan,
  plan_version: 1,
  spiff_id: null,
  kind: "clawback",
  period: "2026-Q4",
  amount: -3257.97,
  status: "approved",
  locked: true,
  currency: "USD",
  payout_run_id: null,
  draw_id: null,
  explanation: {
    summary: `${NOTE}. Reason: ${REASON}`,
    reason: REASON,
    basis: "4340",
    percent: "100",
    factor: { kind: "unserved_days", numerator: "274", denominator: "365", value: "0.7506849315" },
    window: { close_date: "2026-08-14", effective_date: "2026-12-01", days: 109, window_days: 180 },
    effective_date: "2026-12-01",
    trigger: { type: "cancel", refund_id: null },
    target: "3257.97",
    already_clawed_back: "0",
    line_ids: [ID.planLine, ID.spiffLine],
    amount: -3257.97,
  },
  calculated_at: CANCELLED_AT,
};

const {
  id: _id,
  deal_id: _deal,
  status: _status,
  locked: _locked,
  calculated_at: _at,

  payout_run_id: _run,
  draw_id: _draw,
  ...lineAsPreviewed
} = clawbackLine;
// A preview knows no reason: its summary row and line say what the computation is.
const previewLine = { ...lineAsPreviewed, explanation: { ...clawbackLine.explanation, summary: NOTE, reason: null } };

const summary = [{ user_id: ID.ana, plan_id: ID.plan, currency: "USD", amount: -3257.97, note: NOTE }];

const paid = dealAfter("paid");
const cancelled = {
  ...paid,
  status: "cancelled",
  total_commission: 1082.03,
  commission_totals: [{ currency: "USD", amount: 1082.03 }],
  cancelled_at: CANCELLED_AT,
  cancel_reason: REASON,
  cancel_effective_date: "2026-12-01",
  updated_at: CANCELLED_AT,
  commissions: [...paid.commissions, clawbackLine],
  clawback_summary: summary,
};

export const refund = {
  id: ID.refund,
  deal_id: ID.deal,
  amount: 12000,
  effective_date: "2026-10-01",
  reason: "Seats reduced from 40 to 30",
  clawback_line_ids: ["com_01J8Z1K4M7P0R3T6W9Y2B5D8F1"],
  created_at: "2026-10-02T08:00:00.000Z",
};

const { commissions: _lines, recalculation_job_id: _job, people: _people, ...refundedDeal } = dealAfter("paid");

export const CLAWBACK_REQUESTS = {
  cancelDeal: { reason: REASON, effective_date: "2026-12-01" },
  refundDeal: { amount: 12000, effective_date: "2026-10-01", reason: "Seats reduced from 40 to 30" },
  previewClawbacks: { type: "cancel", effective_date: "2026-12-01" },
};

export const CLAWBACK_SCHEMAS = {
  Refund: refund,
  ClawbackPreview: { clawback_summary: summary, lines: [previewLine] },
};

export const CLAWBACK_OPERATIONS = { cancelDeal: cancelled };

export const CLAWBACK_EVENTS = {
  DealRefundedEvent: {
    id: "evt_01J8Z1K4M9R2T5W8Y1B4D7F0H3",
    type: "deal.refunded",
    created_at: refund.created_at,
    data: {
      object: {
        ...refundedDeal,
        refunded_amount: 12000,
        total_commission: 3255,
        commission_totals: [{ currency: "USD", amount: 3255 }],
        updated_at: refund.created_at,
      },
      refund,
    },
  },
};
