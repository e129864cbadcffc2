import type { FastifyRequest } from "fastify";
import type pino from "pino";
import type { Actor } from "../context.js";
import { etagOf, matchesIfNoneMatch } from "../http/etag.js";
import { matchedRoute } from "../http/matched-route.js";
import type { ServiceOrigin } from "../http/origin.js";
import type { App } from "../http/types.js";
import { newId } from "../ids.js";
import { httpMetrics } from "../metrics.js";
import { redactTarget } from "../request-logs/redact.js";
import type { RequestLogWriter } from "../request-logs/writer.js";
import type { ActiveSession } from "../sessions/index.js";
import { type AdmissionDeps, admitRequest } from "./admission.js";
import type { PageFallback } from "./not-found.js";
import { signInCsrfRefusal } from "./session-gate.js";

export interface PipelineDeps extends AdmissionDeps {
  origin: ServiceOrigin;
  tls: boolean;
  requestLog: RequestLogWriter;
  logger: pino.Logger;
  /** An unknown path a browser opens, answered with the console's page (not-found.ts): no key asked. */
  pageFallback?: PageFallback;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** Routes for a signed-in person only (GET /auth/session, POST /auth/logout): a key gets 403. */
    sessionOnly?: boolean;
    /** Public routes that sign a person in: no key needed, but written to the request log like the rest. */
    signIn?: boolean;
  }
  interface FastifyRequest {
    startedAt: bigint;
    actor: Actor | undefined;
    /** The session that signed the request's person in (none for a key): its CSRF token and expiry. */
    session: ActiveSession | undefined;
    /** Refused by the failed-auth IP limiter: counted, not logged one row each (API.md §3). */
    ipLimited: boolean;
    /** Its log line and row are written (by onResponse, or by onRequestAbort if the client left first). */
    logged: boolean;
  }
}

/**
 * Default deny, decided on the route the router matched (never on the raw URL, which may be encoded,
 * absolute-form or dot-segmented): only routes whose config says `public` skip the key. Unmatched
 * requests need a key too, so they get 401 (or, with a key, 404/405) through the same pipeline —
 * except a page a browser opens outside /api (`pageFallback`), which gets the console's public page.
 */
function needsKey(req: FastifyRequest, deps: PipelineDeps): boolean {
  if (matchedRoute(req).config?.public === true) return false;
  return !(req.is404 && deps.pageFallback?.takes(req));
}

/** The status logged for a request whose client closed the connection before the answer (never sent). */
const CLIENT_CLOSED = 499;

export function registerPipeline(app: App, deps: PipelineDeps): void {
  app.decorateRequest("ctx", null as never);
  app.decorateRequest("actor", undefined);
  app.decorateRequest("session", undefined);
  app.decorateRequest("publicOrigin", "");
  app.decorateRequest("startedAt", 0n);
  app.decorateRequest("ipLimited", false);
  app.decorateRequest("logged", false);
  app.decorateRequest("matched", undefined);

  // One hook, not two: each hook is a promise and a dispatch on every request.
  app.addHook("onRequest", (req, reply, done) => {
    req.startedAt = process.hrtime.bigint();
    reply.header("Request-Id", req.id);
    req.publicOrigin = deps.origin.value;
    if (deps.tls || (req.protocol === "https" && req.publicOrigin.startsWith("https:"))) {
      reply.header("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    }
    if (needsKey(req, deps)) admitRequest(deps, req, reply, done);
    else done(matchedRoute(req).config?.signIn ? signInCsrfRefusal(req) : undefined);
  });

  // While draining for a restart, answer what arrives on open connections but close them, so
  // clients reconnect to another process instead of seeing a 503.
  let draining = false;
  app.addHook("preClose", async () => {
    draining = true;
  });

  // Callback hooks from here on: synchronous, so no promise per request for each.
  app.addHook("onSend", (req, reply, payload, done) => {
    if (draining) reply.header("Connection", "close");
    if (!reply.hasHeader("Cache-Control")) reply.header("Cache-Control", "private, no-cache");
    if (req.method !== "GET" || reply.statusCode !== 200 || typeof payload !== "string") return done(null, payload);
    const etag = etagOf(payload);
    reply.header("ETag", etag);
    if (!matchesIfNoneMatch(req.headers["if-none-match"], etag)) return done(null, payload);
    reply.code(304);
    reply.removeHeader("Content-Type");
    reply.removeHeader("Content-Length");
    done(null, "");
  });

  const logRequest = (req: FastifyRequest, answered: number) => {
    if (req.logged) return;
    req.logged = true;
    // Whatever was answered, nobody received it once the client left (reset, or EOF) mid-request.
    const left = !req.raw.complete && (req.raw.aborted || req.raw.socket?.readableEnded === true);
    const status = left ? CLIENT_CLOSED : answered;
    const durationMs = Number(process.hrtime.bigint() - req.startedAt) / 1e6;
    const route = matchedRoute(req);
    httpMetrics.record(route.url ?? "unmatched", req.method, status, durationMs / 1000);
    if (req.ipLimited) return;
    const entry = {
      id: req.id,
      key_id: req.actor?.type === "api_key" ? req.actor.keyId : null,
      user_id: req.actor?.type === "user" ? req.actor.userId : null,
      method: req.method,
      path: redactTarget(req.url),
      status,
      duration_ms: Math.round(durationMs * 1000) / 1000,
      client_ip: req.ip ?? null,
      user_agent: req.headers["user-agent"] ?? null,
      created_at: deps.clock(),
    };
    // A request that timed out (408) or whose client left (499) is the client's problem: warn, not error.
    const level = status === 408 || status === CLIENT_CLOSED ? "warn" : "info";
    // The row's fields but its time, in its order, `id` as `request_id` first (built as one literal: no rest/spread).
    const line = {
      request_id: entry.id,
      key_id: entry.key_id,
      user_id: entry.user_id,
      method: entry.method,
      path: entry.path,
      status: entry.status,
      duration_ms: entry.duration_ms,
      client_ip: entry.client_ip,
      user_agent: entry.user_agent,
    };
    deps.logger[level](line, "request");
    if (needsKey(req, deps) || route.config?.signIn) deps.requestLog.record(entry);
  };

  app.addHook("onResponse", (req, reply, done) => {
    logRequest(req, reply.statusCode);
    done();
  });
  // The client went away before its request was answered (nginx's 499): logged once, as such.
  app.addHook("onRequestAbort", (req, done) => {
    logRequest(req, CLIENT_CLOSED);
    done();
  });
}

/** Fresh ids for every request; an incoming Request-Id header is never trusted. */
export function requestIdGenerator(): string {
  return newId("req");
}
