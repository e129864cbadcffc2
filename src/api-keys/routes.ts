import { declareRoutes } from "../declare-routes.js";
import { EmptyBody, IdParams } from "../http/input-fields.js";
import { NEWEST_FIRST } from "../http/pagination.js";
import type { App } from "../http/types.js";
import { createKey } from "./create.js";
import { listKeys } from "./list.js";
import { getKey } from "./read.js";
import { revokeKey } from "./revoke.js";
import { rotateKey } from "./rotate.js";
import { ApiKey, CreateApiKeyBody, CreatedApiKey, ListApiKeysQuery, RotateApiKeyBody } from "./schema.js";

const LIST = `${NEWEST_FIRST} Raw keys are never shown.`;

export function apiKeyRoutes(app: App): void {
  const route = declareRoutes(app, ["API keys"]);
  const keys = route.records({ path: "/api-keys", scope: "admin", record: ApiKey, read: getKey });
  keys.list({ summary: "List API keys", description: LIST, query: ListApiKeysQuery }, ({ ctx, query }) =>
    listKeys(ctx, query),
  );

  keys.create(
    {
      secretResponse: true,
      summary: "Create an API key",
      description: "Returns the raw `key` once. New keys have mcp_access `read`; only the owner CLI raises it.",
      body: CreateApiKeyBody,
      response: CreatedApiKey,
    },
    ({ ctx, body }) => createKey(ctx, body),
  );

  keys.get({ summary: "Get an API key" });

  route.post(
    {
      path: "/api-keys/:id/revoke",
      scope: "admin",
      summary: "Revoke an API key",
      description: "Effective on the next request. Revoking a revoked key changes nothing.",
      represents: keys.ref,
      params: IdParams,
      body: EmptyBody,
      response: ApiKey,
    },
    ({ ctx, params }) => revokeKey(ctx, params.id),
  );

  route.post(
    {
      path: "/api-keys/:id/rotate",
      scope: "admin",
      secretResponse: true,
      summary: "Rotate an API key",
      description:
        "Creates a new key (new id, same name and scope, `replaces` = old id, mcp_access reset to read) and returns its raw `key` once. The old key's expires_at becomes now + grace_period_seconds (or stays earlier if it already was).",
      represents: keys.ref,
      params: IdParams,
      body: RotateApiKeyBody,
      response: CreatedApiKey,
    },
    ({ ctx, params, body }) => rotateKey(ctx, params.id, body.grace_period_seconds),
  );
}
