import { ACCOUNTING_REQUESTS } from "./accounting.js";
import { CLAWBACK_REQUESTS } from "./clawbacks.js";
import { DRAW_REQUESTS } from "./draws.js";
import { IMPORT_REQUESTS } from "./imports.js";
import { NOTIFICATION_REQUESTS } from "./notifications.js";
import { PAYOUT_RUN_REQUESTS } from "./payout-runs.js";
import { ID } from "./world.js";

/** The deal Ana closed, as a CRM sends it. */
const newDeal = {
  external_id: "006Dn00000A1b2C",
  opportunity_name: "Acme Corp — platform",
  arr_amount: 48000,
  currency: "USD",
  deal_type: "new_business",
  close_date: "2026-08-14",
  owner_id: ID.ana,
};

/** PUT /deals/by-external-id/{external_id} names the deal in its path. */
const { external_id: _inPath, ...upserted } = newDeal;

const planChange = {
  tiers: [
    { from_attainment: 0, rate: 0.09 },
    { from_attainment: 1, rate: 0.12 },
  ],
};

/**
 * A request body's other shapes, by operationId and then the shape's name (its example is named
 * `{operationId}{Shape}Request`), each with the summary a reader picks it by.
 */
export const MORE_REQUESTS: Record<string, Record<string, { summary: string; value: unknown }>> = {
  createCompPlan: {
    Override: {
      summary: "An override plan (API.md §16)",
      value: {
        name: "Sales manager overrides 2026",
        kind: "override",
        period: "quarter",
        override_levels: [
          { depth: 1, rate: 0.03 },
          { depth: 2, rate: 0.01 },
        ],
        effective_from: "2026-01-01",
      },
    },
  },
};

/** One request body per operation that takes one (by operationId); actions without fields send `{}`. */
export const REQUESTS: Record<string, unknown> = {
  ...PAYOUT_RUN_REQUESTS,
  ...NOTIFICATION_REQUESTS,
  ...DRAW_REQUESTS,
  ...ACCOUNTING_REQUESTS,
  ...IMPORT_REQUESTS,
  createApiKey: { name: "Finance sync", scope: "write", expires_at: "2027-01-01T00:00:00.000Z" },
  revokeApiKey: {},
  rotateApiKey: { grace_period_seconds: 3600 },
  logIn: { email: "ana.silva@acme.example", password: "correct horse battery staple" },
  logOut: {},
  createInvitation: {},
  acceptInvitation: { token: "t0kQ8mW2xV5bN9cR3sL7wP1yH4jD6fGa", password: "lantern-orbit-meadow-47" },
  changePassword: { current_password: "lantern-orbit-meadow-47", new_password: "harbor-velvet-quartz-19" },
  createUser: {
    external_id: "0055e00000AbCdE",
    name: "Ana Silva",
    email: "ana.silva@acme.example",
    role: "rep",
    manager_id: ID.ben,
  },
  updateUser: { manager_id: ID.ben, manager_effective_from: "2026-04-01" },
  replaceReportingLines: {
    lines: [
      { manager_id: null, effective_from: "2026-01-05" },
      { manager_id: ID.ben, effective_from: "2026-04-01" },
    ],
  },
  previewReportingChange: { manager_id: ID.ben, manager_effective_from: "2026-04-01" },
  revokeUserSessions: {},
  createCompPlan: {
    name: "Enterprise AE 2026",
    description: "Quarterly quota; 12% past 100% attainment; renewals at half rate.",
    period: "quarter",
    quota: 250000,
    tiers: [
      { from_attainment: 0, rate: 0.08 },
      { from_attainment: 1, rate: 0.12 },
    ],
    deal_type_multipliers: { renewal: 0.5 },
    effective_from: "2026-01-01",
  },
  updateCompPlan: { ...planChange, retroactive: false },
  previewPlanChange: planChange,
  assignPlanToUser: { user_id: ID.ana, effective_from: "2026-01-01" },
  updatePlanAssignment: { quota_override: 200000 },
  createSpiff: {
    name: "Q3 new logos",
    description: "$500 for every new-business deal of $20,000 or more closed in Q3.",
    starts_on: "2026-07-01",
    ends_on: "2026-09-30",
    criteria: { min_arr_amount: 20000, deal_types: ["new_business"] },
    payout: { type: "flat", amount: 500 },
  },
  updateSpiff: { ends_on: "2026-10-15" },
  putExchangeRates: { base: "USD", rates: { EUR: "0.92", GBP: "0.79" } },
  createWebhookSubscription: {
    url: "https://hooks.acme.example/commissions",
    events: ["deal.approved", "deal.paid", "commission.calculated"],
    description: "Payroll sync",
  },
  updateWebhookSubscription: { events: ["*"] },
  rotateWebhookSecret: {},
  sendWebhookTestEvent: {},
  retryWebhookDelivery: {},
  ...CLAWBACK_REQUESTS,
  createDeal: newDeal,
  updateDeal: { arr_amount: 52000 },
  approveDeal: {},
  rejectDeal: { reason: "Duplicate of the June opportunity" },
  markDealPaid: {},
  openDisputeOnDeal: {
    reason: "missing_tier",
    description: "The 12% tier should apply: Ana passed quota with this deal.",
    expected_amount: 6260,
  },
  resolveDispute: {
    outcome: "partially_approved",
    resolved_amount: 6260,
    note: "The 12% tier applies from the quota on: 6,260.00 accepted.",
  },
  createAdjustment: { deal_id: ID.deal, user_id: ID.ana, amount: -120.5, reason: "Clawback: seats reduced" },
  upsertDealByExternalId: upserted,
  upsertDealsInBulk: { deals: [newDeal] },
  previewCommission: {
    opportunity_name: "Globex expansion",
    arr_amount: 30000,
    deal_type: "expansion",
    close_date: "2026-09-02",
    owner_id: ID.ana,
  },
};
