import type { FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../db/schema.js";
import { AppError } from "../errors.js";
import { headerSentOnce } from "../http/headers.js";
import type { App } from "../http/types.js";
import { fingerprintOf, fingerprintOfFile } from "../idempotency/fingerprint.js";
import { findRecord, type StoredRecord } from "../idempotency/repository.js";
import { IdempotentRequest, inUse, type Outcome } from "../idempotency/request-transaction.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The success response carries a secret (a new API key, a webhook secret): never stored. */
    secretResponse?: boolean;
  }
  interface FastifyRequest {
    /** The request's Idempotency-Key at work: its transaction and its in-process "running" slot. */
    idempotent: { request: IdempotentRequest; slot: string } | undefined;
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

/**
 * Whose Idempotency-Keys these are: an API key's, or a signed-in person's (the console retries writes
 * like any client). Key ids (key_…) and user ids (usr_…) never collide in the records' `key_id` column.
 */
function holderOf(req: FastifyRequest): string | undefined {
  if (req.actor?.type === "api_key") return req.actor.keyId;
  if (req.actor?.type === "user") return req.actor.userId;
  return undefined;
}

function keyOf(req: FastifyRequest): string | undefined {
  if (!WRITE_METHODS.has(req.method) || holderOf(req) === undefined) return undefined;
  // A session's own routes carry passwords (POST /auth/password): their bodies must not even reach a
  // fingerprint, a fast hash kept 24 h. They are not retried blind either, so they take no key.
  if (req.routeOptions.config?.sessionOnly) return undefined;
  const header = headerSentOnce(req.raw.rawHeaders, "idempotency-key", "Idempotency-Key");
  // MCP hijacks its reply and runs many calls per request: it has no Idempotency-Key semantics (a
  // repeated header is still refused above, as on every write route).
  if (header === undefined || req.routeOptions.url === "/mcp") return undefined;
  if (header.length === 0 || header.length > 255) {
    const message = "must be 1-255 characters, sent once";
    throw new AppError("validation_error", `Idempotency-Key ${message}`, [{ param: "Idempotency-Key", message }]);
  }
  return header;
}

/** The path as the router read it (decoded parameters), so every spelling of one request has one fingerprint. */
function routedPath(req: FastifyRequest): string {
  const params = (req.params ?? {}) as Record<string, string>;
  const route = req.routeOptions.url ?? req.url.split("?")[0] ?? req.url;
  return route.replace(/:(\w+)/g, (whole, name: string) => params[name] ?? whole);
}

/** What the reply was, as the record stores it. */
function outcomeOf(req: FastifyRequest, reply: FastifyReply, payload: unknown): Outcome {
  // A 412 answers "the record moved on", not the request: a retry with a fresh If-Match must run.
  if (reply.statusCode >= 500 || reply.statusCode === 412) return "failed";
  if (reply.statusCode < 300 && req.routeOptions.config?.secretResponse) return "secret";
  const contentType = (reply.getHeader("content-type") as string | undefined) ?? null;
  return { status: reply.statusCode, contentType, body: String(payload ?? "") };
}

function replayOrRefuse(
  reply: FastifyReply,
  stored: StoredRecord,
  fingerprint: string,
  key: string,
  requestId: string,
) {
  if (stored.fingerprint !== fingerprint) {
    throw new AppError("idempotency_key_reused", `Idempotency-Key ${key} was already used for a different request`);
  }
  if (stored.state === "secret") {
    throw new AppError(
      "conflict",
      `The request with Idempotency-Key ${key} already issued its secret, which is shown only once`,
    );
  }
  const { status, contentType, body } = stored.response;
  reply.header("Idempotent-Replayed", "true").code(status);
  if (contentType) reply.type(contentType);
  return reply.send(withCurrentRequestId(body, requestId));
}

/**
 * `Idempotency-Key` on POST/PUT/PATCH (API.md §2): 2xx and 4xx are stored for 24 h and replayed with
 * `Idempotent-Replayed: true`; 5xx are not; responses carrying a secret are never stored. A reply is
 * stored by the transaction that did its work (request-transaction.ts), so after a crash a retry finds
 * either that reply or nothing done. "Running" is this process's memory plus, on PostgreSQL, a lock
 * held by the running request's transaction: neither outlives the request.
 */
export function registerIdempotency(
  app: App,
  db: Db,
  clock: () => Date,
  options: { embedded: boolean; crashAfterCommit: boolean },
): void {
  const running = new Set<string>();
  app.decorateRequest("idempotent", undefined);

  // Callback hooks: most requests carry no Idempotency-Key, and they then cost no promise.
  const begin = async (req: FastifyRequest, reply: FastifyReply, key: string, keyId: string) => {
    const slot = `${keyId}\n${key}`;
    if (running.has(slot)) throw inUse(key);
    running.add(slot);
    let started = false;
    try {
      // A text body is a file (the CSV imports): its query (dry_run, map) changes what the request does.
      const fingerprint =
        typeof req.body === "string"
          ? fingerprintOfFile(req.method, routedPath(req), req.query, req.body)
          : fingerprintOf(req.method, routedPath(req), req.body);
      const stored = await findRecord(db, keyId, key);
      if (stored) return replayOrRefuse(reply, stored, fingerprint, key, req.id);
      const request = new IdempotentRequest(db, keyId, key, fingerprint, clock(), !options.embedded);
      req.idempotent = { request, slot };
      req.ctx = { ...req.ctx, requestTransaction: request };
      started = true;
    } finally {
      if (!started) running.delete(slot);
    }
  };
  app.addHook("preValidation", (req, reply, done) => {
    const key = keyOf(req);
    const keyId = holderOf(req);
    if (key === undefined || keyId === undefined) return done();
    begin(req, reply, key, keyId).then(() => done(), done);
  });

  const finish = async (
    req: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    current: NonNullable<FastifyRequest["idempotent"]>,
  ) => {
    req.idempotent = undefined;
    try {
      await current.request.finish(outcomeOf(req, reply, payload));
    } catch (err) {
      // The work did not commit: the reply must not say it did (the error handler answers instead).
      if (current.request.opened && reply.statusCode < 400) throw err;
      req.log.error({ err }, "idempotency record not stored");
    } finally {
      running.delete(current.slot);
    }
    // Tests only: die between the commit and the reply (test/idempotency/crash.test.ts).
    if (options.crashAfterCommit && current.request.opened && reply.statusCode < 400) {
      process.kill(process.pid, "SIGKILL");
    }
    return payload;
  };
  app.addHook("onSend", (req, reply, payload, done) => {
    const current = req.idempotent;
    if (current === undefined) return done(null, payload);
    finish(req, reply, payload, current).then((sent) => done(null, sent), done);
  });

  // A reply that skipped onSend (hijacked) must not keep its transaction or its key.
  app.addHook("onResponse", (req, _reply, done) => {
    const current = req.idempotent;
    if (current === undefined) return done();
    req.idempotent = undefined;
    running.delete(current.slot);
    current.request.abandon().then(() => done(), done);
  });
}
