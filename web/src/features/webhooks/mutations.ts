import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api/client";
import type { operations } from "../../api/schema";
import { type Subscription, webhookKeys } from "./queries";

export type CreateBody = operations["createWebhookSubscription"]["requestBody"]["content"]["application/json"];
/** Takes a secret from a response into the one-time dialog's state, with the subscription it signs for. */
export type Reveal = (secret: string, subscription: Subscription) => void;
export type UpdateBody = NonNullable<
  operations["updateWebhookSubscription"]["requestBody"]
>["content"]["application/json"];

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
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateBody) =>
      withoutSecret(await unwrap(api.POST("/api/v1/webhook-subscriptions", { body })), reveal),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

/** URL, events, description or status (active | disabled); the URL is checked again (422 naming `url`). */
export function useUpdateSubscription(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateBody) =>
      unwrap(api.PATCH("/api/v1/webhook-subscriptions/{id}", { params: { path: { id } }, body })),
    onSuccess: (subscription) => {
      queryClient.setQueryData(webhookKeys.detail(id), subscription);
      return queryClient.invalidateQueries({ queryKey: webhookKeys.all });
    },
  });
}

/** A new secret once; for 24 h the previous one also signs every delivery (API.md §6). */
export function useRotateSecret(id: string, reveal: Reveal) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      withoutSecret(
        await unwrap(api.POST("/api/v1/webhook-subscriptions/{id}/rotate-secret", { params: { path: { id } } })),
        reveal,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

/** Queues a `webhook.test` event to this subscription; the log shows its delivery. */
export function useSendTest(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/webhook-subscriptions/{id}/test", { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...webhookKeys.detail(id), "deliveries"] }),
  });
}

export function useRetryDelivery(subscriptionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      unwrap(api.POST("/api/v1/webhook-deliveries/{id}/retry", { params: { path: { id: deliveryId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...webhookKeys.detail(subscriptionId), "deliveries"] }),
  });
}

/** Only the lists are read again: the page of the deleted subscription is left (and its queries with it). */
export function useDeleteSubscription(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE("/api/v1/webhook-subscriptions/{id}", { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...webhookKeys.all, "list"] }),
  });
}
