import { deal, ID } from "./world.js";

/** API.md §16: a manager move's impact on override lines (POST /users/{id}/reporting-lines/impact). */
export const reportingImpact = {
  user_id: ID.ana,
  lines_before: [{ manager_id: null, effective_from: "2026-01-05", effective_to: null }],
  lines_after: [
    { manager_id: null, effective_from: "2026-01-05", effective_to: "2026-03-31" },
    { manager_id: ID.ben, effective_from: "2026-04-01", effective_to: null },
  ],
  summary: { users: 1, deals: 1, lines: 1, pending_delta: 1440, locked_delta: 0 },
  users: [
    {
      user_id: ID.ben,
      name: "Ben Okafor",
      periods: [{ period: "2026-Q3", pending: { before: 0, after: 1440 }, locked: { before: 0, after: 0 } }],
    },
  ],
  lines: {
    data: [
      {
        line_id: null,
        deal_id: ID.deal,
        opportunity_name: deal.opportunity_name,
        close_date: deal.close_date,
        user_id: ID.ben,
        period: "2026-Q3",
        status: "pending",
        locked: false,
        before: 0,
        after: 1440,
        delta: 1440,
        kind: "override",
        explanation_before: null,
        explanation_after: {
          summary: "override: depth 1: 48,000.00 × 3% = 1,440.00",
          plan_id: ID.plan,
          plan_version: 1,
          period: "2026-Q3",
          levels: [
            {
              depth: 1,
              rate: "0.03",
              users: [{ user_id: ID.ana, credit: "48000" }],
              credit: "48000",
              commission: "1440",
            },
          ],
          fx: null,
          unrounded: "1440",
          amount: 1440,
        },
      },
    ],
    meta: { page: 1, per_page: 25, total: 1 },
  },
};
