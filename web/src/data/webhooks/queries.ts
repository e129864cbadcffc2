import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { QueryOf, Schemas } from "../../api/types";
import { keys } from "../keys";
import { defineQuery } from "../query";

export type Subscription = Schemas["WebhookSubscription"];
export type Delivery = Schemas["WebhookDelivery"];
export type Attempt = Schemas["WebhookDeliveryAttempt"];
/** What a subscription may name: an event type, or `*` for all of them. */
export type EventName = Schemas["WebhookEventName"];
export type EventType = Exclude<EventName, "*">;

export const subscriptionsQuery = defineQuery(
  "GET /api/v1/webhook-subscriptions",
  (query: QueryOf<"listWebhookSubscriptions">) =>
    queryOptions({
      queryKey: keys.webhooks.list(query),
      queryFn: () => unwrap(api.GET("/api/v1/webhook-subscriptions", { params: { query } })),
    }),
);

export const subscriptionQuery = defineQuery("GET /api/v1/webhook-subscriptions/{id}", (id: string) =>
  queryOptions({
    queryKey: keys.webhooks.detail(id),
    queryFn: () => unwrap(api.GET("/api/v1/webhook-subscriptions/{id}", { params: { path: { id } } })),
  }),
);

/** While a delivery on the page is still due, the log is read again every few seconds to show its attempts. */
const WHILE_PENDING_MS = 3000;

/** A page of the subscription's delivery log (under its detail key: deleting it drops the log too). */
export const deliveriesQuery = defineQuery(
  "GET /api/v1/webhook-subscriptions/{id}/deliveries",
  (id: string, query: QueryOf<"listSubscriptionDeliveries">) =>
    queryOptions({
      queryKey: keys.webhooks.detail(id, "deliveries", query),
      queryFn: () =>
        unwrap(api.GET("/api/v1/webhook-subscriptions/{id}/deliveries", { params: { path: { id }, query } })),
      refetchInterval: (q) =>
        q.state.data?.data.some((delivery) => delivery.status === "pending") ? WHILE_PENDING_MS : false,
    }),
);

/** Every event type (API.md §6); the check below fails the build when the API's list changes. */
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
] as const satisfies readonly EventType[];
type Unlisted = Exclude<EventType, (typeof EVENT_TYPES)[number]>;
export const everyEventListed: [Unlisted] extends [never] ? true : false = true;
