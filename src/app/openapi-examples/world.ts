/**
 * One small, consistent world the document's examples are drawn from: Ana Silva, a rep on the
 * "Enterprise AE 2026" plan, closes Acme's $48,000 deal, earns a plan line and a SPIFF line, disputes
 * a tier and is adjusted. The values are what the service answered for these requests.
 */

export const AT = {
  created: "2026-08-14T16:02:11.482Z",
  approved: "2026-08-15T09:30:04.117Z",
  disputed: "2026-08-18T11:12:40.905Z",
  adjusted: "2026-08-19T08:45:27.331Z",
  paid: "2026-10-05T14:00:00.000Z",
} as const;

export const ID = {
  ana: "usr_01J5QK2W8C3R6T9V1X4Z7B0D2F",
  ben: "usr_01J5QK2X1E4G7J0M3P6S9V2Y5A",
  key: "key_01J5QK1N4Q7S0V3X6Z9C2E5G8J",
  plan: "plan_01J5QK3A7D0F3H6K9N2Q5S8V1X",
  assignment: "asg_01J5QK3F2H5K8N1Q4S7V0X3Z6B",
  spiff: "spiff_01J5QK3M6P9R2T5W8Y1B4D7F0H",
  deal: "deal_01J5QRB8Z1C4E7G0J3M6P9R2T5",
  refund: "rfd_01J9A4N7Q0S3V6X9Z2C5E8G1J4",
  clawbackLine: "com_01J9A4N7Q3T6W9Y2B5D8F1H4K7",
  planLine: "com_01J5QRB92D5F8H1K4N7Q0S3V6X",
  spiffLine: "com_01J5QRB95G8J1M4P7R0T3W6Y9B",
  adjustmentLine: "com_01J5RZC3T6W9Y2B5D8F1H4K7M0",
  dispute: "dsp_01J5RX7K0N3Q6S9V2X5Z8C1E4G",
  subscription: "whsub_01J5QM0C3F6H9K2N5Q8S1V4X7Z",
  delivery: "whdel_01J5QRB9A3C6E9G2J5M8P1R4T7",
  event: "evt_01J5QRB98K1N4Q7S0V3X6Z9C2E",
  job: "job_01J5S0D6H9K2M5P8R1T4W7Y0B3",
  request: "req_01J5RZC3Q2S5V8X1Z4B7D0F3H6",
} as const;

export const ana = {
  id: ID.ana,
  external_id: "0055e00000AbCdE",
  name: "Ana Silva",
  email: "ana.silva@acme.example",
  role: "rep",
  manager_id: ID.ben,
  active: true,
  payroll_id: "004211",
  created_at: "2026-01-05T09:00:00.000Z",
  updated_at: "2026-01-05T09:00:00.000Z",
};

const TIERS = [
  { from_attainment: 0, rate: 0.08 },
  { from_attainment: 1, rate: 0.12 },
];

/** A plan's terms: what its versions keep. */
const terms = {
  currency: "USD",
  period: "quarter",
  quota: 250000,
  base_rate: null,
  tiers: TIERS,
  deal_type_multipliers: { renewal: 0.5 },
  min_deal_amount: null,
  cap_per_period: null,
  override_levels: null,
  effective_from: "2026-01-01",
  effective_to: null,
  clawback: { window_days: 180, percent: 100, proration: "unserved_days" },
  fx_max_age_days: 7,
};

export const plan = {
  id: ID.plan,
  name: "Enterprise AE 2026",
  description: "Quarterly quota; 12% past 100% attainment; renewals at half rate.",
  status: "active",
  kind: "standard",
  ...terms,
  version: 1,
  created_at: "2026-01-02T10:15:00.000Z",
  updated_at: "2026-01-02T10:15:00.000Z",
};

export const planVersion = { ...terms, plan_id: ID.plan, version: 1, created_at: plan.created_at };

export const assignment = {
  id: ID.assignment,
  plan_id: ID.plan,
  user_id: ID.ana,
  effective_from: "2026-01-01",
  effective_to: null,
  quota_override: null,
  created_at: "2026-01-05T09:05:00.000Z",
  updated_at: "2026-01-05T09:05:00.000Z",
};

export const spiff = {
  id: ID.spiff,
  name: "Q3 new logos",
  description: "$500 for every new-business deal of $20,000 or more closed in Q3.",
  currency: "USD",
  starts_on: "2026-07-01",
  ends_on: "2026-09-30",
  criteria: { min_arr_amount: 20000, deal_types: ["new_business"], user_ids: null },
  payout: { type: "flat", amount: 500 },
  active: true,
  fx_max_age_days: 7,
  created_at: "2026-06-20T15:00:00.000Z",
  updated_at: "2026-06-20T15:00:00.000Z",
};

export const planExplanation = {
  summary: "48,000.00 × 8% = 3,840.00",
  plan_id: ID.plan,
  plan_version: 1,
  period: "2026-Q3",
  quota: "250000",
  credit: "48000",
  prior_attainment: "0",
  bands: [{ from: "0", to: "250000", rate: "0.08", amount: "48000", commission: "3840" }],
  multiplier: "1",
  cap: null,
  unrounded: "3840",
  amount: 3840,
};

const line = {
  deal_id: ID.deal,
  user_id: ID.ana,
  period: "2026-Q3",
  status: "pending",
  locked: false,
  currency: "USD",
  payout_run_id: null,
  draw_id: null,
};

export const planLine = {
  id: ID.planLine,
  ...line,
  plan_id: ID.plan,
  plan_version: 1,
  spiff_id: null,
  kind: "plan",
  amount: 3840,
  explanation: planExplanation,
  calculated_at: AT.created,
};

export const spiffLine = {
  id: ID.spiffLine,
  ...line,
  plan_id: null,
  plan_version: null,
  spiff_id: ID.spiff,
  kind: "spiff",
  amount: 500,
  explanation: {
    summary: 'SPIFF "Q3 new logos": flat 500.00 × 100% split = 500.00',
    spiff_id: ID.spiff,
    spiff_name: "Q3 new logos",
    criteria_met: [
      "SPIFF active",
      "currency USD",
      "close_date 2026-08-14 within 2026-07-01 to 2026-09-30",
      "arr_amount 48,000.00 ≥ 20,000.00",
      "deal_type new_business is listed",
    ],
    payout: { type: "flat", amount: "500" },
    credit: "48000",
    percent: "100",
    period: "2026-Q3",
    unrounded: "500",
    amount: 500,
  },
  calculated_at: AT.created,
};

export const adjustmentLine = {
  id: ID.adjustmentLine,
  ...line,
  status: "approved",
  locked: true,
  plan_id: null,
  plan_version: null,
  spiff_id: null,
  kind: "adjustment",
  amount: -120.5,
  explanation: {
    summary: "Adjustment -120.50 by Finance sync: Clawback: seats reduced",
    reason: "Clawback: seats reduced",
    author: { key_id: ID.key, name: "Finance sync" },
    period: "2026-Q3",
    amount: -120.5,
  },
  calculated_at: AT.adjusted,
};

export const deal = {
  id: ID.deal,
  external_id: "006Dn00000A1b2C",
  opportunity_name: "Acme Corp — platform",
  arr_amount: 48000,
  currency: "USD",
  deal_type: "new_business",
  close_date: "2026-08-14",
  owner_id: ID.ana,
  splits: [{ user_id: ID.ana, percent: 100 }],
  status: "pending",
  total_commission: 4340,
  total_commission_scope: "deal",
  total_commission_currency: "USD",
  commission_totals: [{ currency: "USD", amount: 4340 }],
  rejection_reason: null,
  approved_at: null,
  paid_at: null,
  contract_start: "2026-09-01",
  contract_end: "2027-09-01",
  cancelled_at: null,
  cancel_reason: null,
  cancel_effective_date: null,
  refunded_amount: 0,
  created_at: AT.created,
  updated_at: AT.created,
  explanation: null,
  fx_missing: [],
};

/** The deal as an action leaves it, with its lines as that action leaves them. */
export function dealAfter(status: "pending" | "approved" | "rejected" | "paid") {
  const moved = {
    pending: {},
    approved: { approved_at: AT.approved, updated_at: AT.approved },
    rejected: {
      rejection_reason: "Duplicate of the June opportunity",
      total_commission: 0,
      commission_totals: [],
      updated_at: AT.approved,
    },
    paid: { approved_at: AT.approved, paid_at: AT.paid, updated_at: AT.paid },
  }[status];
  const lineStatus = { pending: "pending", approved: "approved", rejected: "void", paid: "paid" }[status];
  const lines = [planLine, spiffLine].map((l) => ({ ...l, status: lineStatus, locked: status !== "pending" }));
  const people = [{ user_id: ID.ana, name: ana.name }];
  return { ...deal, status, ...moved, people, commissions: lines, recalculation_job_id: null };
}

export const dispute = {
  id: ID.dispute,
  deal_id: ID.deal,
  opened_by_key_id: ID.key,
  reason: "missing_tier",
  description: "The 12% tier should apply: Ana passed quota with this deal.",
  amount_scope: "deal",
  scope_user_id: null,
  expected_amount: 6260,
  status: "open",
  outcome: null,
  resolution_note: null,
  resolved_amount: null,
  created_at: AT.disputed,
  resolved_at: null,
};

export const subscription = {
  id: ID.subscription,
  url: "https://hooks.acme.example/commissions",
  description: "Payroll sync",
  events: ["deal.approved", "deal.paid", "commission.calculated"],
  status: "active",
  disabled_reason: null,
  secret_hint: "whsec_…x8Qk",
  previous_secret_expires_at: null,
  created_at: "2026-06-01T12:00:00.000Z",
  updated_at: "2026-06-01T12:00:00.000Z",
};

/** One day's rates (API.md §15 F1, F2): 1 USD = 0.92 EUR = 0.79 GBP. */
export const exchangeRates = {
  date: "2026-03-09",
  base: "USD",
  rates: { EUR: "0.92", GBP: "0.79" },
  created_at: "2026-03-09T17:00:00.000Z",
  updated_at: "2026-03-09T17:00:00.000Z",
};
