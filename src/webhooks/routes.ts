import { z } from "zod";
import { EmptyBody, IdParams } from "../http/input-fields.js";
import { pageReply } from "../http/list-reply.js";
import { listOf } from "../http/pagination.js";
import type { App } from "../http/types.js";
import * as deliveries from "./deliveries-service.js";
import {
  CreateSubscriptionBody,
  ListDeliveriesQuery,
  ListSubscriptionsQuery,
  UpdateSubscriptionBody,
  WebhookDelivery,
  WebhookEvent,
  WebhookSubscription,
  WebhookSubscriptionWithSecret,
} from "./schema.js";
import * as service from "./service.js";
import type { WebhookSettings } from "./settings.js";

const tags = ["Webhooks"];
const admin = { scope: "admin" } as const;
/** The response shows a secret once: an Idempotency-Key replay never stores or repeats it. */
const adminSecret = { scope: "admin", secretResponse: true } as const;
const NoContent = z.null().describe("No body.");

export function webhookRoutes(app: App, settings: WebhookSettings): void {
  app.get(
    "/webhook-subscriptions",
    {
      config: admin,
      schema: {
        tags,
        summary: "List webhook subscriptions",
        description:
          "Newest first (created_at desc, id desc). Secrets are never shown; `secret_hint` tells them apart.",
        querystring: ListSubscriptionsQuery,
        response: { 200: listOf(WebhookSubscription) },
      },
    },
    async (req, reply) => pageReply(req, reply, await service.listSubscriptions(req.ctx, req.query)),
  );

  app.post(
    "/webhook-subscriptions",
    {
      config: adminSecret,
      schema: {
        tags,
        summary: "Create a webhook subscription",
        description:
          "Returns the signing `secret` once. The url must be https and resolve to public addresses only (422 naming `url` otherwise); `events` lists event types or `*`.",
        body: CreateSubscriptionBody,
        response: { 201: WebhookSubscriptionWithSecret },
      },
    },
    async (req, reply) => reply.code(201).send(await service.createSubscription(req.ctx, settings, req.body)),
  );

  app.get(
    "/webhook-subscriptions/:id",
    {
      config: admin,
      schema: { tags, summary: "Get a webhook subscription", params: IdParams, response: { 200: WebhookSubscription } },
    },
    (req) => service.getSubscription(req.ctx, req.params.id),
  );

  app.patch(
    "/webhook-subscriptions/:id",
    {
      config: {
        ...admin,
        ifMatch: { read: (ctx, p) => service.getSubscription(ctx, p.id!), schema: WebhookSubscription },
      },
      schema: {
        tags,
        summary: "Update a webhook subscription",
        description:
          "Merges `url` (validated again), `events`, `description` and `status` (active | disabled). Events written while disabled are never delivered; pending deliveries wait and resume when it is active again.",
        params: IdParams,
        body: UpdateSubscriptionBody,
        response: { 200: WebhookSubscription },
      },
    },
    (req) => service.updateSubscription(req.ctx, settings, req.params.id, req.body),
  );

  app.delete(
    "/webhook-subscriptions/:id",
    {
      config: admin,
      schema: {
        tags,
        summary: "Delete a webhook subscription",
        description: "Its deliveries and their attempt log go with it.",
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await service.deleteSubscription(req.ctx, req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/webhook-subscriptions/:id/rotate-secret",
    {
      config: adminSecret,
      schema: {
        tags,
        summary: "Rotate a webhook signing secret",
        operationId: "rotateWebhookSecret",
        description:
          "Returns the new `secret` once. For 24 h the previous secret also signs every delivery (two space-separated signatures), so receivers can switch without losing events.",
        params: IdParams,
        body: EmptyBody,
        response: { 200: WebhookSubscriptionWithSecret },
      },
    },
    (req) => service.rotateSecret(req.ctx, settings, req.params.id),
  );

  app.post(
    "/webhook-subscriptions/:id/test",
    {
      config: admin,
      schema: {
        tags,
        summary: "Send a test event",
        operationId: "sendWebhookTestEvent",
        description:
          "Queues a `webhook.test` event to this subscription only and returns it (202); follow it in the deliveries log.",
        params: IdParams,
        body: EmptyBody,
        response: { 202: WebhookEvent },
      },
    },
    async (req, reply) => reply.code(202).send(await deliveries.sendTest(req.ctx, req.params.id)),
  );

  app.get(
    "/webhook-subscriptions/:id/deliveries",
    {
      config: admin,
      schema: {
        tags,
        summary: "List a subscription's deliveries",
        description:
          "Newest first (created_at desc, id desc), each with its attempts (time, status, duration, error, first 20 KB of the response). Attempts are kept 30 days.",
        params: IdParams,
        querystring: ListDeliveriesQuery,
        response: { 200: listOf(WebhookDelivery) },
      },
    },
    async (req, reply) => pageReply(req, reply, await deliveries.listDeliveries(req.ctx, req.params.id, req.query)),
  );

  app.post(
    "/webhook-deliveries/:id/retry",
    {
      config: admin,
      schema: {
        tags,
        summary: "Retry a webhook delivery",
        description:
          "Queues one more attempt now. 409 while an attempt is running or when the subscription is disabled.",
        params: IdParams,
        body: EmptyBody,
        response: { 200: WebhookDelivery },
      },
    },
    (req) => deliveries.retryDelivery(req.ctx, req.params.id),
  );
}
