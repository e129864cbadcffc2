import { z } from "zod";
import { declareRoutes } from "../declare-routes.js";
import { EmptyBody, IdParams } from "../http/input-fields.js";
import type { App } from "../http/types.js";
import { createSubscription } from "./create-subscription.js";
import { deleteSubscription } from "./delete-subscription.js";
import { listDeliveries } from "./list-deliveries.js";
import { listSubscriptions } from "./list-subscriptions.js";
import { getSubscription } from "./read-subscription.js";
import { retryDelivery } from "./retry-delivery.js";
import { rotateSecret } from "./rotate-secret.js";
import {
  CreateSubscriptionBody,
  ListDeliveriesQuery,
  ListSubscriptionsQuery,
  UpdateSubscriptionBody,
  WebhookDelivery,
  WebhookSubscription,
  WebhookSubscriptionWithSecret,
  WebhookTestEvent,
} from "./schema.js";
import { sendTest } from "./send-test.js";
import type { WebhookSettings } from "./settings.js";
import { updateSubscription } from "./update-subscription.js";

const NoContent = z.null().describe("No body.");

export function webhookRoutes(app: App, settings: WebhookSettings): void {
  const route = declareRoutes(app, ["Webhooks"]);
  const subscriptions = route.records({
    path: "/webhook-subscriptions",
    scope: "admin",
    record: WebhookSubscription,
    read: getSubscription,
  });
  subscriptions.list(
    {
      summary: "List webhook subscriptions",
      description: "Newest first (created_at desc, id desc). Secrets are never shown; `secret_hint` tells them apart.",
      query: ListSubscriptionsQuery,
    },
    ({ ctx, query }) => listSubscriptions(ctx, query),
  );

  subscriptions.create(
    {
      secretResponse: true,
      summary: "Create a webhook subscription",
      description:
        "Returns the signing `secret` once. The url must be https and resolve to public addresses only (422 naming `url` otherwise); `events` lists event types or `*`.",
      body: CreateSubscriptionBody,
      response: WebhookSubscriptionWithSecret,
    },
    ({ ctx, body }) => createSubscription(ctx, settings, body),
  );

  subscriptions.get({ summary: "Get a webhook subscription" });

  subscriptions.update(
    {
      summary: "Update a webhook subscription",
      description:
        "Merges `url` (validated again), `events`, `description` and `status` (active | disabled). Events written while disabled are never delivered; pending deliveries wait and resume when it is active again.",
      body: UpdateSubscriptionBody,
    },
    (ctx, id, body) => updateSubscription(ctx, settings, id, body),
  );

  subscriptions.remove(
    {
      summary: "Delete a webhook subscription",
      description: "Its deliveries and their attempt log go with it.",
      response: NoContent,
    },
    // Deleting a subscription starts no recalculation: no job id for the header.
    (ctx, id) => deleteSubscription(ctx, id).then(() => null),
  );

  route.post(
    {
      path: "/webhook-subscriptions/:id/rotate-secret",
      scope: "admin",
      secretResponse: true,
      summary: "Rotate a webhook signing secret",
      operationId: "rotateWebhookSecret",
      description:
        "Returns the new `secret` once. For 24 h the previous secret also signs every delivery (two space-separated signatures), so receivers can switch without losing events.",
      represents: subscriptions.ref,
      params: IdParams,
      body: EmptyBody,
      response: WebhookSubscriptionWithSecret,
    },
    ({ ctx, params }) => rotateSecret(ctx, settings, params.id),
  );

  route.accept(
    {
      path: "/webhook-subscriptions/:id/test",
      scope: "admin",
      summary: "Send a test event",
      operationId: "sendWebhookTestEvent",
      description:
        "Queues a `webhook.test` event to this subscription only and returns it (202); follow it in the deliveries log.",
      params: IdParams,
      body: EmptyBody,
      response: WebhookTestEvent,
    },
    ({ ctx, params }) => sendTest(ctx, params.id),
  );

  route.list(
    {
      path: "/webhook-subscriptions/:id/deliveries",
      scope: "admin",
      summary: "List a subscription's deliveries",
      description:
        "Newest first (created_at desc, id desc), each with its attempts (time, status, duration, error, first 20 KB of the response). Attempts are kept 30 days.",
      params: IdParams,
      query: ListDeliveriesQuery,
      item: WebhookDelivery,
    },
    ({ ctx, params, query }) => listDeliveries(ctx, params.id, query),
  );

  route.post(
    {
      path: "/webhook-deliveries/:id/retry",
      scope: "admin",
      summary: "Retry a webhook delivery",
      description: "Queues one more attempt now. 409 while an attempt is running or when the subscription is disabled.",
      params: IdParams,
      body: EmptyBody,
      response: WebhookDelivery,
    },
    ({ ctx, params }) => retryDelivery(ctx, params.id),
  );
}
