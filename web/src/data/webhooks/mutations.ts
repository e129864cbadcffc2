import { api, unwrap } from "../../api/client";
import type { BodyOf, Schemas } from "../../api/types";
import { keys } from "../keys";
import { useWrite } from "../write";
import type { Subscription } from "./queries";

export type CreateBody = BodyOf<"createWebhookSubscription">;
export type UpdateBody = BodyOf<"updateWebhookSubscription">;
/** Takes a secret from a response into the one-time dialog's state, with the subscription it signs for. */
export type Reveal = (secret: string, subscription: Subscription) => void;

/**
 * The signing secret leaves the response here, into `reveal` (the one-time dialog's state); the mutation
 * keeps only the subscription, since TanStack's mutation cache holds a mutation's data and a secret
 * must live in no cache.
 */
function withoutSecret(created: Schemas["WebhookSubscriptionWithSecret"], reveal: Reveal): Subscription {
  const { secret, ...subscription } = created;
  reveal(secret, subscription);
  return subscription;
}

export function useCreateSubscription(reveal: Reveal) {
  return useWrite("POST /api/v1/webhook-subscriptions", async (body: CreateBody) =>
    withoutSecret(await unwrap(api.POST("/api/v1/webhook-subscriptions", { body })), reveal),
  );
}

/** URL, events, description or status (active | disabled); the URL is checked again (422 naming `url`). */
export function useUpdateSubscription(id: string) {
  return useWrite("PATCH /api/v1/webhook-subscriptions/{id}", (body: UpdateBody) =>
    unwrap(api.PATCH("/api/v1/webhook-subscriptions/{id}", { params: { path: { id } }, body })),
  );
}

/** A new secret once; for 24 h the previous one also signs every delivery (API.md §6). */
export function useRotateSecret(id: string, reveal: Reveal) {
  return useWrite("POST /api/v1/webhook-subscriptions/{id}/rotate-secret", async () =>
    withoutSecret(
      await unwrap(api.POST("/api/v1/webhook-subscriptions/{id}/rotate-secret", { params: { path: { id } } })),
      reveal,
    ),
  );
}

/** Queues a `webhook.test` event to this subscription; the log shows its delivery. */
export function useSendTest(id: string) {
  return useWrite("POST /api/v1/webhook-subscriptions/{id}/test", () =>
    unwrap(api.POST("/api/v1/webhook-subscriptions/{id}/test", { params: { path: { id } } })),
  );
}

export function useRetryDelivery() {
  return useWrite("POST /api/v1/webhook-deliveries/{id}/retry", (deliveryId: string) =>
    unwrap(api.POST("/api/v1/webhook-deliveries/{id}/retry", { params: { path: { id: deliveryId } } })),
  );
}

/** The lists are read again; the deleted subscription's page (and its log) is not asked for again. */
export function useDeleteSubscription(id: string) {
  return useWrite(
    "DELETE /api/v1/webhook-subscriptions/{id}",
    () => unwrap(api.DELETE("/api/v1/webhook-subscriptions/{id}", { params: { path: { id } } })),
    { gone: keys.webhooks.detail(id) },
  );
}
