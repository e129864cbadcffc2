import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api/client";
import type { operations } from "../../api/schema";
import { type ApiKey, apiKeyKeys } from "./queries";

export type CreateKeyBody = operations["createApiKey"]["requestBody"]["content"]["application/json"];

/**
 * The raw key leaves the response here, into `reveal` (the one-time dialog's state), and the mutation
 * keeps only the key's public fields: TanStack's mutation cache holds a mutation's data, and a secret
 * must live in no cache (API.md §2: shown once).
 */
function withoutSecret(created: Schemas["CreatedApiKey"], reveal: (key: string) => void): ApiKey {
  const { key, ...rest } = created;
  reveal(key);
  return rest;
}

export function useCreateKey(reveal: (key: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateKeyBody) =>
      withoutSecret(await unwrap(api.POST("/api/v1/api-keys", { body })), reveal),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

/**
 * A new key with the old one's name and scope; the old one works until now + grace (API.md §1). The old
 * key is read again after, so the dialog shows the grace end the API set, not one guessed here.
 */
export function useRotateKey(id: string, reveal: (key: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (gracePeriodSeconds: number) => {
      const created = await unwrap(
        api.POST("/api/v1/api-keys/{id}/rotate", {
          params: { path: { id } },
          body: { grace_period_seconds: gracePeriodSeconds },
        }),
      );
      const replacement = withoutSecret(created, reveal);
      const old = await unwrap(api.GET("/api/v1/api-keys/{id}", { params: { path: { id } } }));
      return { replacement, old };
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export function useRevokeKey(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/api-keys/{id}/revoke", { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
