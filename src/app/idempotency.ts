import type { FastifyRequest } from "fastify";
import type { Kdb } from "../db/connect.js";
import { AppError } from "../errors.js";
import { headerSentOnce } from "../http/headers.js";
import type { App } from "../http/types.js";
import { claimKey, completeKey, fingerprintOf, forgetKey } from "../idempotency/store.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The success response carries a secret (a new API key, a webhook secret): never stored. */
    secretResponse?: boolean;
  }
  interface FastifyRequest {
    idempotencyKey: string | undefined;
  }
}

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH"]);

/** A stored error body names the request that produced it; a replay answers as this request. */
function withCurrentRequestId(body: string, requestId: string): string {
  if (!body.includes('"request_id"')) return body;
  try {
    const parsed = JSON.parse(body);
    if (parsed?.error?.request_id) parsed.error.request_id = requestId;
    return JSON.stringify(parsed);
  } catch {
    return body;
  }
}

function keyOf(req: FastifyRequest): string | undefined {
  if (!WRITE_METHODS.has(req.method) || req.actor?.type !== "api_key") return undefined;
  const header = headerSentOnce(req.raw.rawHeaders, "idempotency-key", "Idempotency-Key");
  if (header === undefined) return undefined;
  if (header.length === 0 || header.length > 255) {
    const message = "must be 1-255 characters, sent once";
    throw new AppError("validation_error", `Idempotency-Key ${message}`, [{ param: "Idempotency-Key", message }]);
  }
  return header;
}

/**
 * `Idempotency-Key` on POST/PUT/PATCH (API.md §2): 2xx and 4xx are stored for 24 h and replayed with
 * `Idempotent-Replayed: true`; 5xx are not; responses carrying a secret are never stored.
 */
export function registerIdempotency(app: App, db: Kdb, clock: () => Date): void {
  app.decorateRequest("idempotencyKey", undefined);

  app.addHook("preValidation", async (req, reply) => {
    const key = keyOf(req);
    if (key === undefined || req.actor?.type !== "api_key") return;
    const path = req.url.split("?")[0] ?? req.url;
    const claim = await claimKey(db, req.actor.keyId, key, fingerprintOf(req.method, path, req.body), clock());
    switch (claim.kind) {
      case "first":
        req.idempotencyKey = key;
        return;
      case "replay":
        reply.header("Idempotent-Replayed", "true").code(claim.status);
        if (claim.contentType) reply.type(claim.contentType);
        return reply.send(withCurrentRequestId(claim.body, req.id));
      case "reused":
        throw new AppError("idempotency_key_reused", `Idempotency-Key ${key} was already used for a different request`);
      case "in_use":
        throw new AppError(
          "idempotency_key_in_use",
          `A request with Idempotency-Key ${key} is still running; retry shortly`,
        );
      case "secret":
        throw new AppError(
          "conflict",
          `The request with Idempotency-Key ${key} already issued its secret, which is shown only once`,
        );
    }
  });

  app.addHook("onSend", async (req, reply, payload) => {
    const key = req.idempotencyKey;
    if (key === undefined || req.actor?.type !== "api_key") return payload;
    req.idempotencyKey = undefined;
    const keyId = req.actor.keyId;
    try {
      if (reply.statusCode >= 500) await forgetKey(db, keyId, key);
      else if (reply.statusCode < 300 && req.routeOptions.config?.secretResponse)
        await completeKey(db, keyId, key, "secret");
      else {
        const contentType = (reply.getHeader("content-type") as string | undefined) ?? null;
        await completeKey(db, keyId, key, { status: reply.statusCode, contentType, body: String(payload ?? "") });
      }
    } catch (err) {
      req.log.error({ err }, "idempotency record update failed");
    }
    return payload;
  });
}
