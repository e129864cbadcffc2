import { EmptyBody, IdParams } from "../http/input-fields.js";
import { pageReply } from "../http/list-reply.js";
import { listOf } from "../http/pagination.js";
import type { App } from "../http/types.js";
import { ApiKey, CreateApiKeyBody, CreatedApiKey, ListApiKeysQuery, RotateApiKeyBody } from "./schema.js";
import * as service from "./service.js";

const tags = ["API keys"];

export function apiKeyRoutes(app: App): void {
  app.get(
    "/api-keys",
    {
      config: { scope: "admin" },
      schema: {
        tags,
        summary: "List API keys",
        description: "Newest first (created_at desc, id desc). Raw keys are never shown.",
        querystring: ListApiKeysQuery,
        response: { 200: listOf(ApiKey) },
      },
    },
    async (req, reply) => pageReply(req, reply, await service.listKeys(req.ctx, req.query)),
  );

  app.post(
    "/api-keys",
    {
      config: { scope: "admin", secretResponse: true },
      schema: {
        tags,
        summary: "Create an API key",
        description: "Returns the raw `key` once. New keys have mcp_access `read`; only the owner CLI raises it.",
        body: CreateApiKeyBody,
        response: { 201: CreatedApiKey },
      },
    },
    async (req, reply) => reply.code(201).send(await service.createKey(req.ctx, req.body)),
  );

  app.get(
    "/api-keys/:id",
    {
      config: { scope: "admin" },
      schema: { tags, summary: "Get an API key", params: IdParams, response: { 200: ApiKey } },
    },
    (req) => service.getKey(req.ctx, req.params.id),
  );

  app.post(
    "/api-keys/:id/revoke",
    {
      config: { scope: "admin" },
      schema: {
        tags,
        summary: "Revoke an API key",
        description: "Effective on the next request. Revoking a revoked key changes nothing.",
        params: IdParams,
        body: EmptyBody,
        response: { 200: ApiKey },
      },
    },
    (req) => service.revokeKey(req.ctx, req.params.id),
  );

  app.post(
    "/api-keys/:id/rotate",
    {
      config: { scope: "admin", secretResponse: true },
      schema: {
        tags,
        summary: "Rotate an API key",
        description:
          "Creates a new key (new id, same name and scope, `replaces` = old id, mcp_access reset to read) and returns its raw `key` once. The old key's expires_at becomes now + grace_period_seconds (or stays earlier if it already was).",
        params: IdParams,
        body: RotateApiKeyBody,
        response: { 200: CreatedApiKey },
      },
    },
    (req) => service.rotateKey(req.ctx, req.params.id, req.body.grace_period_seconds),
  );
}
