import { lineDeal } from "./statements.js";
import { adjustmentLine, ana, ID } from "./world.js";

/** Ana's Q3 lines paid by one run (API.md §13): its summary, payee, lines and event, agreeing numbers. */

const RUN = "prun_01J8Z4M2Q5S8V1X4Z7B0D3F6H9";
const held = { status: "approved", locked: true, payout_run_id: RUN };

const summary = {
  id: RUN,
  status: "draft",
  through: "2026-09-30",
  pay_date: "2026-10-15",
  currency: "USD",
  user_ids: null,
  max_recovery_percent: 100,
  period_start: "2026-09-01",
  period_end: "2026-09-30",
  totals: [
    {
      currency: "USD",
      payees: 1,
      lines: 3,
      lines_total: 4219.5,
      recovered: 0,
      net_pay: 4219.5,
      deficit_carried_forward: 0,
    },
  ],
  created_at: "2026-10-01T08:00:00.000Z",
  created_by: ID.key,
  finalized_at: null,
  finalized_by: null,
  cancelled_at: null,
};

const payee = {
  user_id: ID.ana,
  name: ana.name,
  email: ana.email,
  external_id: ana.external_id,
  payroll_id: "004211",
  currency: "USD",
  gross: { plan: 3840, spiff: 500, override: 0, adjustment: -120.5, clawback: 0, draw_advance: 0, draw_recovery: 0 },
  line_count: 3,
  lines_total: 4219.5,
  positive_total: 4340,
  deficit_brought_forward: 0,
  recovery_cap: 4340,
  recovered: 0,
  net_pay: 4219.5,
  deficit_carried_forward: 0,
};

// A page of one line (?per_page=1) keeps the document small; the plan and SPIFF lines are the other two.
const inRun = (status: "draft" | "finalized") => ({ id: RUN, status, pay_date: "2026-10-15" });
const lines = [{ ...adjustmentLine, ...held, deal: lineDeal, payout_run: inRun("draft") }];
const detail = { ...summary, payees: [payee], lines: { data: lines, meta: { page: 1, per_page: 1, total: 3 } } };
const finalizedAt = "2026-10-15T09:00:00.000Z";
const finalized = { ...summary, status: "finalized", finalized_at: finalizedAt, finalized_by: ID.key };

export const PAYOUT_RUN_EXAMPLES: Record<string, unknown> = {
  PayoutRunSummary: summary,
  PayoutRunDetail: detail,
};

export const PAYOUT_RUN_OPERATIONS: Record<string, unknown> = {
  getUserPayoutBalances: [{ currency: "USD", deficit: 100, draws: [] }],
  finalizePayoutRun: {
    ...detail,
    ...finalized,
    lines: {
      ...detail.lines,
      data: lines.map((line) => ({ ...line, status: "paid", payout_run: inRun("finalized") })),
    },
  },
  cancelPayoutRun: {
    ...detail,
    status: "cancelled",
    cancelled_at: "2026-10-02T10:00:00.000Z",
    lines: { data: [], meta: { page: 1, per_page: 25, total: 0 } },
  },
};

export const PAYOUT_RUN_EVENT = {
  id: "evt_01J8Z9P3R6T9W2Y5A8C1E4G7J0",
  type: "payout_run.finalized",
  created_at: finalizedAt,
  data: { object: finalized },
};

export const PAYOUT_RUN_REQUESTS: Record<string, unknown> = {
  createPayoutRun: { through: "2026-09-30", pay_date: "2026-10-15", currency: "USD", max_recovery_percent: 50 },
  finalizePayoutRun: {},
  cancelPayoutRun: {},
};
