import { useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { BodyOf, Schemas } from "../../api/types";
import { useWrite } from "../write";
import { type ApiKey, apiKeyQuery } from "./queries";

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
  return useWrite("POST /api/v1/api-keys", async (body: BodyOf<"createApiKey">) =>
    withoutSecret(await unwrap(api.POST("/api/v1/api-keys", { body })), reveal),
  );
}

/**
 * A new key with the old one's name and scope; the old one works until now + grace (API.md §1). The old
 * key is read again after, so the dialog shows the grace end the API set, not one guessed here (absent
 * when that read fails: the rotation itself happened).
 */
export function useRotateKey(id: string, reveal: (key: string) => void) {
  const client = useQueryClient();
  return useWrite("POST /api/v1/api-keys/{id}/rotate", async (gracePeriodSeconds: number) => {
    const created = await unwrap(
      api.POST("/api/v1/api-keys/{id}/rotate", {
        params: { path: { id } },
        body: { grace_period_seconds: gracePeriodSeconds },
      }),
    );
    const replacement = withoutSecret(created, reveal);
    const old = await client.fetchQuery({ ...apiKeyQuery(id), staleTime: 0 }).catch(() => undefined);
    return { replacement, old };
  });
}

export function useRevokeKey(id: string) {
  return useWrite("POST /api/v1/api-keys/{id}/revoke", () =>
    unwrap(api.POST("/api/v1/api-keys/{id}/revoke", { params: { path: { id } } })),
  );
}
