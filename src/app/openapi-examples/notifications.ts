// Examples of the notification, password reset and plan acknowledgement bodies (docs/notifications.md).

const kinds = [
  ["invitation", true, false],
  ["password_reset", true, false],
  ["deal_approved", true, true],
  ["deal_rejected", true, true],
  ["deal_cancelled", false, true],
  ["dispute_opened", true, true],
  ["dispute_resolved", true, true],
  ["payout_statement", true, true],
  ["plan_acknowledgement", true, true],
  ["weekly_digest", false, true],
] as const;

const acknowledged = {
  id: "pack_01J8Z9P3R6T9W2Y5A8C1E4G7J0",
  user_id: "usr_01J5QH0A6X9Z2C5F8H1K4M7P0R",
  user_name: "Dana Reyes",
  plan_id: "plan_01J5QH7P2B5D8G1J4L7N0Q3S6V",
  plan_name: "AE Standard 2026",
  plan_version: 2,
  status: "acknowledged",
  document_sha256: "3f79bb7b435b05321651daefd374cdc681dc06faa65e374e38337b88ca046dea",
  acknowledged_at: "2026-10-02T09:15:00.000Z",
  created_at: "2026-10-01T12:00:00.000Z",
};

const DOCUMENT = [
  "COMMISSION PLAN: AE Standard 2026",
  "Version 2",
  "",
  "Effective from: 2026-01-01",
  "Effective to: until replaced",
  "Currency: USD",
  "Commission period: quarter",
  "Quota per period: USD 100,000.00",
  "",
  "Commission rates by quota attainment:",
  "  from 0% of quota: 10% of deal value",
  "  from 100% of quota: 15% of deal value",
  "",
  "Minimum deal amount: none",
  "Cap per period: USD 50,000.00",
  "Clawback: 100% of the commission earned on a deal cancelled or refunded within 90 days of its close date",
  "",
].join("\n");

export const NOTIFICATION_EXAMPLES: Record<string, unknown> = {
  NotificationSettings: {
    email_configured: true,
    kinds: kinds.map(([kind, enabled, switchable]) => ({ kind, enabled, switchable })),
  },
  NotificationDelivery: {
    id: "ntf_01J8Z9P3R6T9W2Y5A8C1E4G7J0",
    kind: "payout_statement",
    user_id: "usr_01J5QH0A6X9Z2C5F8H1K4M7P0R",
    event_id: "evt_01J8Z9P3R6T9W2Y5A8C1E4G7J0",
    to: "dana.reyes@example.com",
    status: "sent",
    attempt_count: 1,
    next_attempt_at: null,
    last_error: null,
    sent_at: "2026-10-01T10:00:02.000Z",
    created_at: "2026-10-01T10:00:00.000Z",
  },
  PasswordResetAccepted: {
    message:
      "If an active account uses this email, a link to choose a new password is on its way; it works for 1 hour.",
  },
  PlanAcknowledgement: acknowledged,
  PlanAcknowledgementDetail: {
    ...acknowledged,
    document: DOCUMENT,
    current_document_sha256: acknowledged.document_sha256,
  },
};

export const NOTIFICATION_REQUESTS: Record<string, unknown> = {
  requestPasswordReset: { email: "dana.reyes@example.com" },
  confirmPasswordReset: { token: "t0kQ8mW2xV5bN9cR3sL7wP1yH4jD6fGa", password: "lantern-orbit-meadow-47" },
  updateMyNotifications: { kinds: { deal_cancelled: false } },
  acknowledgePlan: { document_sha256: acknowledged.document_sha256 },
};
