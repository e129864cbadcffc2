import { ID } from "./world.js";

/** API.md §18's D1 in the examples' world: Ana's recoverable 2,000.00 monthly draw after April's run. */

const DRAW = "draw_01J8Z4M2Q5S8V1X4Z7B0D3F6H9";
const RUNS = ["prun_01J9A1", "prun_01J9B2", "prun_01J9C3", "prun_01J9D4"].map((r) => r.padEnd(31, "0"));
const E = [2750, 3000, 1500, 2375];
const MONTHS = ["01", "02", "03", "04", "05", "06"];
const last = ["31", "28", "31", "30", "31", "30"];

const draw = {
  id: DRAW,
  user_id: ID.ana,
  kind: "recoverable",
  amount: 2000,
  currency: "USD",
  period: "month",
  starts_on: "2026-01-01",
  ends_on: "2026-06-30",
  recovery_starts_on: "2026-01-01",
  status: "active",
  balance: 125,
  periods: MONTHS.map((m, i) => ({
    period: `2026-${m}`,
    starts_on: `2026-${m}-01`,
    ends_on: `2026-${m}-${last[i]}`,
    earned: E[i] ?? null,
    advance: E[i] === undefined ? null : Math.max(0, 2000 - E[i]!),
    payout_run_id: RUNS[i] ?? null,
  })),
  entries: [
    {
      type: "advance",
      amount: 500,
      line_id: "com_01J9C3Q5S8V1X4Z7B0D3F6H9K2",
      payout_run_id: RUNS[2],
      reason: null,
      created_at: "2026-04-01T08:00:00.000Z",
    },
    {
      type: "recovery",
      amount: -375,
      line_id: "com_01J9D4Q5S8V1X4Z7B0D3F6H9K2",
      payout_run_id: RUNS[3],
      reason: null,
      created_at: "2026-05-01T08:00:00.000Z",
    },
  ],
  created_at: "2026-01-02T09:00:00.000Z",
  updated_at: "2026-01-02T09:00:00.000Z",
};

export const DRAW_EXAMPLES: Record<string, unknown> = { Draw: draw };

export const DRAW_REQUESTS: Record<string, unknown> = {
  createDraw: {
    user_id: ID.ana,
    kind: "recoverable",
    amount: 2000,
    currency: "USD",
    period: "month",
    starts_on: "2026-01-01",
    ends_on: "2026-06-30",
  },
  endDraw: { effective_date: "2026-03-31" },
  forgiveDraw: { amount: 125, reason: "Retention: balance forgiven at the half-year review" },
};

export const DRAW_EVENTS: Record<string, unknown> = {
  DrawEvent: {
    id: "evt_01J9E5P3R6T9W2Y5A8C1E4G7J0",
    type: "draw.created",
    created_at: draw.created_at,
    data: {
      object: {
        ...draw,
        balance: 0,
        entries: [],
        periods: draw.periods.map((p) => ({ ...p, earned: null, advance: null, payout_run_id: null })),
      },
    },
  },
  DrawForgivenEvent: {
    id: "evt_01J9E6P3R6T9W2Y5A8C1E4G7J0",
    type: "draw.forgiven",
    created_at: "2026-05-02T09:00:00.000Z",
    data: {
      object: {
        ...draw,
        balance: 0,
        entries: [
          ...draw.entries,
          {
            type: "forgiveness",
            amount: -125,
            line_id: null,
            payout_run_id: null,
            reason: "Retention: balance forgiven at the half-year review",
            created_at: "2026-05-02T09:00:00.000Z",
          },
        ],
        updated_at: "2026-05-02T09:00:00.000Z",
      },
      amount: 125,
      reason: "Retention: balance forgiven at the half-year review",
    },
  },
};
