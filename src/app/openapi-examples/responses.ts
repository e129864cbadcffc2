import { ACCOUNTING_EVENTS, ACCOUNTING_EXAMPLES } from "./accounting.js";
import { CLAWBACK_EVENTS, CLAWBACK_OPERATIONS, CLAWBACK_SCHEMAS } from "./clawbacks.js";
import { DRAW_EVENTS, DRAW_EXAMPLES } from "./draws.js";
import { IMPORT_OPERATIONS } from "./imports.js";
import { NOTIFICATION_EXAMPLES } from "./notifications.js";
import { PAYOUT_RUN_EVENT, PAYOUT_RUN_EXAMPLES, PAYOUT_RUN_OPERATIONS } from "./payout-runs.js";
import { reportingImpact } from "./reporting.js";
import { STATEMENT_EXAMPLES } from "./statements.js";
import {
  AT,
  adjustmentLine,
  ana,
  assignment,
  deal,
  dealAfter,
  dispute,
  exchangeRates,
  ID,
  plan,
  planExplanation,
  planLine,
  planVersion,
  spiff,
  spiffLine,
  subscription,
} from "./world.js";

/** What a write answers beyond its record: no recalculation left to a background job. */
const inline = { recalculation_job_id: null };

const apiKey = {
  id: ID.key,
  name: "Finance sync",
  scope: "write",
  environment: "live",
  prefix: "cts_live_4kQ9…",
  mcp_access: "read",
  replaces: null,
  created_at: "2026-01-02T10:00:00.000Z",
  last_used_at: AT.adjusted,
  expires_at: null,
  revoked_at: null,
};

const session = {
  user: { ...ana, role: "admin" },
  csrf_token: "Zq3n8vJ2kXo5Lw1bTg7yRc4uEa9sHd6p",
  expires_at: "2026-08-15T18:02:11.482Z",
};

const impactExplanation = {
  ...planExplanation,
  summary: "48,000.00 × 9% = 4,320.00",
  plan_version: 2,
  bands: [{ from: "0", to: "250000", rate: "0.09", amount: "48000", commission: "4320" }],
  unrounded: "4320",
  amount: 4320,
};

/** One example per response schema of the document (its component name). */
export const BY_SCHEMA: Record<string, unknown> = {
  ApiKey: apiKey,
  CreatedApiKey: { ...apiKey, key: "cts_live_4kQ9mT2xV7bN1cR8sL5wP3yH6jD0fG" },
  SignInMethods: { password: true, oidc: true, password_reset: true, needs_first_admin: false },
  Session: session,
  Invitation: {
    id: "inv_01J5QK2Y3F6H9K2M5P8R1T4W7Y",
    user_id: ID.ana,
    url: "https://commissions.acme.example/accept-invitation?token=t0kQ8mW2xV5bN9cR3sL7wP1yH4jD6fGa",
    expires_at: "2026-01-12T09:00:00.000Z",
  },
  User: ana,
  ReportingLines: {
    data: [
      { manager_id: null, effective_from: "2026-01-05", effective_to: "2026-03-31" },
      { manager_id: ID.ben, effective_from: "2026-04-01", effective_to: null },
    ],
  },
  RevokedSessions: { revoked: 2 },
  RequestLog: {
    id: ID.request,
    key_id: ID.key,
    user_id: null,
    method: "POST",
    path: "/api/v1/commissions/adjustments",
    status: 201,
    duration_ms: 18.412,
    client_ip: "203.0.113.24",
    user_agent: "acme-payroll-sync/2.3",
    created_at: AT.adjusted,
  },
  JobListItem: {
    id: ID.job,
    kind: "recalculate",
    status: "succeeded",
    total: 1840,
    done: 1840,
    error: null,
    created_at: "2026-08-20T07:00:00.000Z",
    finished_at: "2026-08-20T07:00:41.310Z",
  },
  Job: {
    id: ID.job,
    kind: "recalculate",
    status: "succeeded",
    total: 1840,
    done: 1840,
    error: null,
    result: null,
    created_at: "2026-08-20T07:00:00.000Z",
    finished_at: "2026-08-20T07:00:41.310Z",
  },
  AuditEvent: {
    id: "aud_01J5RX7K2Q5S8V1X4Z7B0D3F6H",
    actor: { type: "api_key", id: ID.key, name: "Finance sync" },
    action: "deal.approve",
    resource: "deal",
    resource_id: ID.deal,
    before: { id: ID.deal, status: "pending", approved_at: null, updated_at: AT.created },
    after: { id: ID.deal, status: "approved", approved_at: AT.approved, updated_at: AT.approved },
    request_id: ID.request,
    created_at: AT.approved,
  },
  CompPlan: plan,
  CompPlanWritten: { ...plan, ...inline },
  CompPlanVersion: planVersion,
  PlanImpact: {
    plan_id: ID.plan,
    from_version: 1,
    to_version: 2,
    summary: { users: 1, deals: 1, lines: 1, pending_delta: 480, locked_delta: 0 },
    users: [
      {
        user_id: ID.ana,
        name: "Ana Silva",
        periods: [{ period: "2026-Q3", pending: { before: 3840, after: 4320 }, locked: { before: 0, after: 0 } }],
      },
    ],
    lines: {
      data: [
        {
          line_id: ID.planLine,
          deal_id: ID.deal,
          opportunity_name: deal.opportunity_name,
          close_date: deal.close_date,
          user_id: ID.ana,
          period: "2026-Q3",
          status: "pending",
          locked: false,
          before: 3840,
          after: 4320,
          delta: 480,
          kind: "plan",
          explanation_before: planExplanation,
          explanation_after: impactExplanation,
        },
      ],
      meta: { page: 1, per_page: 25, total: 1 },
    },
  },
  ReportingImpact: reportingImpact,
  PlanAssignment: assignment,
  PlanAssignmentWritten: { ...assignment, ...inline },
  Spiff: spiff,
  SpiffWritten: { ...spiff, ...inline },
  ExchangeRateSet: exchangeRates,
  ExchangeRateSetWritten: { ...exchangeRates, ...inline },
  WebhookSubscription: subscription,
  WebhookSubscriptionWithSecret: { ...subscription, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZoh4d1pQx8Qk" },
  WebhookDelivery: {
    id: ID.delivery,
    subscription_id: ID.subscription,
    event_id: ID.event,
    event_type: "deal.approved",
    status: "succeeded",
    attempts: [
      {
        attempted_at: "2026-08-15T09:30:05.002Z",
        response_status: 200,
        duration_ms: 143,
        error: null,
        response_body: '{"received":true}',
      },
    ],
    next_attempt_at: null,
    created_at: AT.approved,
  },
  Deal: deal,
  DealDetail: dealAfter("pending"),
  Dispute: dispute,
  Commission: planLine,
  DealBulkResult: { data: [deal], meta: { created: 1, updated: 0, unchanged: 0, recalculation_job_id: null } },
  CommissionPreview: {
    lines: [
      {
        user_id: ID.ana,
        plan_id: ID.plan,
        plan_version: 1,
        spiff_id: null,
        kind: "plan",
        period: "2026-Q3",
        amount: 2400,
        currency: "USD",
        explanation: {
          ...planExplanation,
          summary: "30,000.00 × 8% = 2,400.00",
          credit: "30000",
          prior_attainment: "48000",
          bands: [{ from: "0", to: "250000", rate: "0.08", amount: "30000", commission: "2400" }],
          unrounded: "2400",
          amount: 2400,
        },
      },
    ],
    total_commission: 2400,
    explanation: null,
  },
  ...STATEMENT_EXAMPLES,
  ...PAYOUT_RUN_EXAMPLES,
  ...NOTIFICATION_EXAMPLES,
  ...DRAW_EXAMPLES,
  ...ACCOUNTING_EXAMPLES,
  ...CLAWBACK_SCHEMAS,
  PayoutGroup: {
    user_id: ID.ana,
    user_name: "Ana Silva",
    period: "2026-Q3",
    currency: "USD",
    total: 4219.5,
    line_count: 3,
    deal_count: 1,
  },
};

/** Where one schema's example would mislead: the operation's own (approve answers an approved deal). */
export const BY_OPERATION: Record<string, unknown> = {
  getLiveness: { status: "ok" },
  getReadiness: { status: "ready" },
  approveDeal: dealAfter("approved"),
  rejectDeal: dealAfter("rejected"),
  markDealPaid: dealAfter("paid"),
  ...CLAWBACK_OPERATIONS,
  createAdjustment: adjustmentLine,
  ...PAYOUT_RUN_OPERATIONS,
  ...IMPORT_OPERATIONS,
  resolveDispute: {
    ...dispute,
    status: "resolved",
    outcome: "partially_approved",
    resolution_note: "The 12% tier applies from the quota on: 6,260.00 accepted.",
    resolved_amount: 6260,
    resolved_at: "2026-08-19T08:45:27.331Z",
  },
};

/** A list's page holds these items (the schema's own example otherwise). */
export const PAGE_ITEMS: Record<string, unknown[]> = {
  Commission: [planLine, spiffLine, adjustmentLine],
};

const { commissions: _lines, recalculation_job_id: _job, people: _people, ...approvedDeal } = dealAfter("approved");

/** The events a subscriber receives, one per body schema. */
export const EVENTS: Record<string, unknown> = {
  DealEvent: { id: ID.event, type: "deal.approved", created_at: AT.approved, data: { object: approvedDeal } },
  CommissionEvent: {
    id: "evt_01J5RZC3V8X1Z4B7D0F3H6K9M2",
    type: "commission.calculated",
    created_at: AT.adjusted,
    data: { object: adjustmentLine, previous_amount: null },
  },
  DisputeEvent: {
    id: "evt_01J5RX7K5T8W1Y4B7D0F3H6K9M",
    type: "dispute.opened",
    created_at: AT.disputed,
    data: { object: dispute },
  },
  PayoutRunEvent: PAYOUT_RUN_EVENT,
  ...DRAW_EVENTS,
  ...ACCOUNTING_EVENTS,
  ...CLAWBACK_EVENTS,
  WebhookTestEvent: {
    id: "evt_01J5QM1D4G7J0M3P6R9T2W5Y8A",
    type: "webhook.test",
    created_at: "2026-06-01T12:01:00.000Z",
    data: { object: subscription },
  },
};
