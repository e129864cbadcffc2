import type { Generated } from "kysely";
import type { DELIVERY_STATUSES, SUBSCRIPTION_STATUSES } from "../enums.js";
import type { Json, OneOf, Timestamp } from "./column-types.js";

/** Row types of webhook subscriptions, deliveries and attempts (migration 003). */

export interface WebhookSubscriptionsTable {
  id: string;
  url: string;
  description: string | null;
  events: Json<string[]>;
  status: OneOf<typeof SUBSCRIPTION_STATUSES>;
  disabled_reason: string | null;
  secret_encrypted: string;
  secret_hint: string;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: Timestamp | null;
  failing_since: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  status: Generated<OneOf<typeof DELIVERY_STATUSES>>;
  attempt_count: Generated<number>;
  final_attempt: Generated<number>;
  next_attempt_at: Timestamp | null;
  locked_until: Timestamp | null;
  claimed_by: string | null;
  created_at: Timestamp;
}

export interface WebhookAttemptsTable {
  id: Generated<string>;
  delivery_id: string;
  attempted_at: Timestamp;
  response_status: number | null;
  duration_ms: number;
  error: string | null;
  response_body: string | null;
}
