/** The kinds of message the service sends (docs/notifications.md). */
export const NOTIFICATION_KINDS = [
  "invitation",
  "password_reset",
  "deal_approved",
  "deal_rejected",
  "deal_cancelled",
  "dispute_opened",
  "dispute_resolved",
  "payout_statement",
  "plan_acknowledgement",
  "weekly_digest",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Security messages: always sent, never switchable (a person must be able to regain their account). */
export const SECURITY_KINDS: readonly NotificationKind[] = ["invitation", "password_reset"];

/** Kinds a person must turn on (`POST /me/notifications`); every other switchable kind starts on. */
export const OFF_BY_DEFAULT: readonly NotificationKind[] = ["weekly_digest"];

export const SWITCHABLE_KINDS = NOTIFICATION_KINDS.filter((k) => !SECURITY_KINDS.includes(k));
export type SwitchableKind = Exclude<NotificationKind, "invitation" | "password_reset">;

/** The event types that notify someone, and the kind of message each becomes. */
export const KIND_OF_EVENT: Record<string, SwitchableKind> = {
  "deal.approved": "deal_approved",
  "deal.rejected": "deal_rejected",
  "deal.cancelled": "deal_cancelled",
  "dispute.opened": "dispute_opened",
  "dispute.resolved": "dispute_resolved",
  "payout_run.finalized": "payout_statement",
};

export const DELIVERY_STATUSES = ["pending", "sent", "failed"] as const;
