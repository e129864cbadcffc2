import { z } from "zod";
import { DELIVERY_STATUSES, SUBSCRIPTION_STATUSES } from "../enums.js";
import { EVENT_TYPES } from "../events/catalogue.js";
import { eventBody } from "../events/envelope.js";
import { Timestamp } from "../http/date-fields.js";
import { PageQuery } from "../http/pagination.js";

const SubscriptionStatus = z.enum(SUBSCRIPTION_STATUSES);
const DeliveryStatus = z.enum(DELIVERY_STATUSES);

/** An event type a subscription names, or `*` for all of them. */
const EventName = z
  .enum(["*", ...EVENT_TYPES], { error: `must be * or one of ${EVENT_TYPES.join(", ")}` })
  .describe("An event type, or `*` for all of them.")
  .meta({ id: "WebhookEventName" });

const EventList = z
  .array(EventName)
  .min(1, "must name at least one event type (or *)")
  .max(EVENT_TYPES.length + 1)
  .transform((names) => [...new Set(names)]);

export const WebhookSubscription = z
  .object({
    id: z.string().describe("whsub_…"),
    url: z.string().describe("The https endpoint deliveries are POSTed to."),
    description: z.string().nullable(),
    events: z.array(EventName).describe("Event types delivered; `*` = all."),
    status: SubscriptionStatus.describe(
      "Only active subscriptions receive events. A 410 answer or 5 days of failures disable it.",
    ),
    disabled_reason: z
      .string()
      .nullable()
      .describe("Why the service disabled it (null when active or disabled by PATCH)."),
    secret_hint: z.string().describe("`whsec_…` and the secret's last 4 characters; the secret is never shown again."),
    previous_secret_expires_at: Timestamp.nullable().describe(
      "After rotate-secret: until then the previous secret also signs every delivery.",
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "WebhookSubscription" });
export type WebhookSubscription = z.infer<typeof WebhookSubscription>;

export const WebhookSubscriptionWithSecret = WebhookSubscription.extend({
  secret: z
    .string()
    .describe("`whsec_` + base64 of 32 random bytes: shown in this response only. Verify signatures with it."),
}).meta({ id: "WebhookSubscriptionWithSecret" });
export type WebhookSubscriptionWithSecret = z.infer<typeof WebhookSubscriptionWithSecret>;

const Url = z.string().trim().min(1).max(2048).describe("https only; must resolve to public addresses only.");
const Description = z.string().trim().max(500).nullable();

export const CreateSubscriptionBody = z.strictObject({
  url: Url,
  events: EventList,
  description: Description.optional(),
});
export type CreateSubscriptionBody = z.infer<typeof CreateSubscriptionBody>;

export const UpdateSubscriptionBody = z
  .strictObject({ url: Url, events: EventList, description: Description, status: SubscriptionStatus })
  .partial();
export type UpdateSubscriptionBody = z.infer<typeof UpdateSubscriptionBody>;

export const ListSubscriptionsQuery = PageQuery.extend({ status: SubscriptionStatus.optional() }).strict();
export type ListSubscriptionsQuery = z.infer<typeof ListSubscriptionsQuery>;

export const DeliveryAttempt = z
  .object({
    attempted_at: Timestamp,
    response_status: z
      .number()
      .int()
      .nullable()
      .describe("null when no HTTP response came (refused, timeout, network)."),
    duration_ms: z.number().int(),
    error: z.string().nullable(),
    response_body: z.string().nullable().describe("The first 20 KB of the response body."),
  })
  .meta({ id: "WebhookDeliveryAttempt" });
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

export const WebhookDelivery = z
  .object({
    id: z.string().describe("whdel_…"),
    subscription_id: z.string(),
    event_id: z.string().describe("evt_…, also the `webhook-id` header of every attempt."),
    event_type: z.string(),
    status: DeliveryStatus,
    attempts: z.array(DeliveryAttempt).describe("Oldest first."),
    next_attempt_at: Timestamp.nullable().describe("When the next attempt is due; null once succeeded or failed."),
    created_at: Timestamp,
  })
  .meta({ id: "WebhookDelivery" });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const ListDeliveriesQuery = PageQuery.extend({ status: DeliveryStatus.optional() }).strict();
export type ListDeliveriesQuery = z.infer<typeof ListDeliveriesQuery>;

/** What `POST /webhook-subscriptions/{id}/test` sends (and answers with): the subscription as GET shows it. */
export const WebhookTestEvent = eventBody("WebhookTestEvent", ["webhook.test"], { object: WebhookSubscription });
export type WebhookTestEvent = z.infer<typeof WebhookTestEvent>;
