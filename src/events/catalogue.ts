/** Every event the service emits (API.md §6). Subscribers pick from these or `*`. */
export const EVENT_TYPES = [
  "deal.created",
  "deal.updated",
  "deal.deleted",
  "deal.approved",
  "deal.rejected",
  "deal.disputed",
  "deal.paid",
  "deal.cancelled",
  "deal.refunded",
  "commission.calculated",
  "dispute.opened",
  "dispute.resolved",
  "payout_run.created",
  "payout_run.finalized",
  "payout_run.cancelled",
  "draw.created",
  "draw.ended",
  "draw.forgiven",
  "accounting.settings_updated",
  "webhook.test",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The `data` of an event body: the resource as the API shows it, plus extras such as `previous_amount`. */
export interface EventData {
  object: unknown;
  [extra: string]: unknown;
}
