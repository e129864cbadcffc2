import { adjustmentLine, ana, deal, ID, plan, planLine, spiffLine } from "./world.js";

/** Ana's statement for 2026-Q3, her row of GET /users/statements and her period: one story, agreeing numbers. */

const statementPlan = {
  plan_id: ID.plan,
  quota: 250000,
  attainment: 48000,
  attainment_ratio: 0.192,
  plan_name: plan.name,
  plan_version: 1,
  currency: "USD",
  period_kind: "quarter",
  tiers: plan.tiers,
  current_rate: 0.08,
  cap_per_period: null,
  earned: 3840,
  cap_reached: false,
  next_tier: { from_attainment: 1, rate: 0.12, arr_to_reach: 202000 },
};

/** A statement line's deal: Acme, 100 % Ana's. */
export const lineDeal = {
  id: deal.id,
  opportunity_name: deal.opportunity_name,
  close_date: deal.close_date,
  arr_amount: deal.arr_amount,
  currency: deal.currency,
  deal_type: deal.deal_type,
  status: deal.status,
  credit_percent: 100,
};

/** The numbers of Ana's statement: its example and her row of GET /users/statements agree. */
const totals = { plan: 3840, spiff: 500, override: 0, adjustment: -120.5, clawback: 0, draw: 0, total: 4219.5 };
const statementNumbers = {
  currency: "USD",
  totals,
  totals_by_currency: [{ currency: "USD", ...totals }],
  by_status: { pending: 4340, approved: -120.5, paid: 0 },
};

export const STATEMENT_EXAMPLES: Record<string, unknown> = {
  StatementPlan: statementPlan,
  Statement: {
    user_id: ID.ana,
    period: "2026-Q3",
    plans: [statementPlan],
    lines: [planLine, spiffLine, adjustmentLine].map((line) => ({ ...line, deal: lineDeal, payout_run: null })),
    draw_lines: [],
    ...statementNumbers,
  },
  TeamStatement: {
    user: { id: ana.id, name: ana.name, role: ana.role, manager_id: ana.manager_id, active: ana.active },
    period: "2026-Q3",
    plans: [statementPlan],
    ...statementNumbers,
    deals: 1,
  },
  PeriodSummary: {
    period: "2026-Q3",
    period_kind: "quarter",
    from: "2026-07-01",
    to: "2026-09-30",
    current: true,
    lines: 3,
    currency: "USD",
    by_status: statementNumbers.by_status,
    total: totals.total,
    totals_by_currency: [{ currency: "USD", amount: totals.total }],
  },
};
