import { queryOptions } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api/client";

export type Subscription = Schemas["WebhookSubscription"];
export type Delivery = Schemas["WebhookDelivery"];
export type Attempt = Schemas["WebhookDeliveryAttempt"];
/** What a subscription may name: an event type, or `*` for all of them. */
export type EventName = Schemas["WebhookEventName"];
export type EventType = Exclude<EventName, "*">;

export const webhookKeys = {
  all: ["webhooks"] as const,
  list: (page: number) => ["webhooks", "list", page] as const,
  detail: (id: string) => ["webhooks", id] as const,
  deliveries: (id: string, page: number) => ["webhooks", id, "deliveries", page] as const,
};

export const PAGE_SIZE = 25;

export const subscriptionsQuery = (page: number) =>
  queryOptions({
    queryKey: webhookKeys.list(page),
    queryFn: () =>
      unwrap(api.GET("/api/v1/webhook-subscriptions", { params: { query: { page, per_page: PAGE_SIZE } } })),
  });

export const subscriptionQuery = (id: string) =>
  queryOptions({
    queryKey: webhookKeys.detail(id),
    queryFn: () => unwrap(api.GET("/api/v1/webhook-subscriptions/{id}", { params: { path: { id } } })),
  });

/** While a delivery on the page is still due, the log is read again every few seconds to show its attempts. */
const WHILE_PENDING_MS = 3000;

export const deliveriesQuery = (id: string, page: number) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(id, page),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/webhook-subscriptions/{id}/deliveries", {
          params: { path: { id }, query: { page, per_page: PAGE_SIZE } },
        }),
      ),
    refetchInterval: (query) =>
      query.state.data?.data.some((delivery) => delivery.status === "pending") ? WHILE_PENDING_MS : false,
  });

/** Every event type (API.md §6); the check below fails the build when the API's list changes. */
export const EVENT_TYPES = [
  "deal.created",
  "deal.updated",
  "deal.deleted",
  "deal.approved",
  "deal.rejected",
  "deal.disputed",
  "deal.paid",
  "commission.calculated",
  "dispute.opened",
  "dispute.resolved",
  "webhook.test",
] as const satisfies readonly EventType[];
type Unlisted = Exclude<EventType, (typeof EVENT_TYPES)[number]>;
export const everyEventListed: [Unlisted] extends [never] ? true : false = true;
