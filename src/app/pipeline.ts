import type { FastifyContextConfig, FastifyReply, FastifyRequest } from "fastify";
import type pino from "pino";
import { requireRouteRole } from "../access/index.js";
import { authenticate, type KeyCache, knownKeyId, type PresentedKey, presentedKey } from "../api-keys/index.js";
import { type Actor, type Ctx, makeCtx, scopeAllows, type UserActor } from "../context.js";
import type { Db } from "../db/schema.js";
import { AppError } from "../errors.js";
import { etagOf, matchesIfNoneMatch } from "../http/etag.js";
import { headerSentOnce } from "../http/headers.js";
import { matchedRoute } from "../http/matched-route.js";
import type { ServiceOrigin } from "../http/origin.js";
import type { App } from "../http/types.js";
import { newId } from "../ids.js";
import { httpMetrics, rateLimitRejections } from "../metrics.js";
import {
  countFailedAuth,
  type Decision,
  type Limit,
  PER_USER,
  policyHeader,
  type RateLimitStore,
  stateHeader,
  tooManyRequests,
} from "../rate-limit/limiter.js";
import { redactTarget } from "../request-logs/redact.js";
import type { RequestLogWriter } from "../request-logs/writer.js";
import {
  type ActiveSession,
  hasSessionCookie,
  resumeSession,
  type SessionSettings,
  sessionTokenOf,
} from "../sessions/index.js";
import type { PageFallback } from "./not-found.js";
import { csrfRefusal, sessionEnded, sessionOnly, signInCsrfRefusal } from "./session-gate.js";

export interface PipelineDeps {
  db: Db;
  keys: KeyCache;
  env: string;
  origin: ServiceOrigin;
  tls: boolean;
  rateLimits: RateLimitStore;
  perKey: Limit;
  /** CTS_SESSION_IDLE_MINUTES and CTS_SESSION_MAX_HOURS: how long a session cookie signs its person in. */
  sessions: SessionSettings;
  requestLog: RequestLogWriter;
  logger: pino.Logger;
  clock: () => Date;
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
    if (needsKey(req, deps)) admit(deps, req, reply).then(() => done(), done);
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
    const { id: request_id, created_at: _at, ...fields } = entry;
    // A request that timed out (408) or whose client left (499) is the client's problem: warn, not error.
    const level = status === 408 || status === CLIENT_CLOSED ? "warn" : "info";
    deps.logger[level]({ request_id, ...fields }, "request");
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

/**
 * 401 → 429 → 403, before any validation (API.md §2 "Checks run in this order"); then the request's ctx.
 * A request with an Authorization header is a key's, whatever cookies it carries; without one, the
 * session cookie signs in its person (API.md §11), whose unsafe methods also pass the CSRF check (a 403,
 * after the rate limit and before the role check).
 */
async function admit(deps: PipelineDeps, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const now = deps.clock();
  // Sent twice → 400 before anything is counted; the key is hashed here once for the cache and the lookup.
  const key = presentedKey(headerSentOnce(req.raw.rawHeaders, "authorization", "Authorization"));
  const early = earlyKeyCount(deps, key, now);
  const who = await identify(deps, req, key, now, early);
  const { actor } = who;
  req.actor = actor;
  req.session = who.session;
  const [limit, name, counted] =
    actor.type === "api_key"
      ? [deps.perKey, "per-key" as const, `key:${actor.keyId}`]
      : [PER_USER, "per-user" as const, `user:${(actor as UserActor).userId}`];
  const decision =
    early?.key === counted
      ? await early.decision
      : await deps.rateLimits.hit(counted, limit.limit, limit.windowMs, now.getTime());
  reply.header("RateLimit-Policy", policyHeader(limit, name));
  reply.header("RateLimit", stateHeader(decision, name));
  if (!decision.allowed) {
    rateLimitRejections.inc({ limiter: actor.type === "api_key" ? "key" : "user" });
    const whose = actor.type === "api_key" ? "this key" : "this user";
    throw tooManyRequests(
      decision.resetSeconds,
      `Rate limit of ${limit.limit} requests per minute exceeded for ${whose}`,
    );
  }
  if (who.session) {
    const csrf = csrfRefusal(req, who.session);
    if (csrf) throw csrf;
  } else if (matchedRoute(req).config?.sessionOnly) {
    throw sessionOnly();
  }
  const ctx = makeCtx(deps.db, deps.env, actor, req.id, now);
  const refusal = await refusalFor(ctx, matchedRoute(req).config, req.params);
  if (refusal) throw refusal;
  req.ctx = ctx;
}

interface EarlyCount {
  key: string;
  decision: Promise<Decision>;
  /** The key version the count's statement read (PostgreSQL): authentication's freshness read, merged. */
  keyVersion: Promise<string> | undefined;
}

/**
 * A key this process has seen starts its rate-limit count before authentication (issue #19). On
 * PostgreSQL the count's statement also reads whether any key changed, which authentication waits for
 * before trusting its cache: one round trip instead of two (issue #35). `admit` uses the count only if
 * authentication confirms that key; a request refused 401 meanwhile (a key just revoked or expired) has
 * counted once against a key that no longer authenticates.
 */
function earlyKeyCount(deps: PipelineDeps, presented: PresentedKey, now: Date): EarlyCount | undefined {
  const keyId = knownKeyId(deps.keys, presented);
  if (keyId === undefined) return undefined;
  const key = `key:${keyId}`;
  const { limit, windowMs } = deps.perKey;
  const store = deps.rateLimits;
  if (!store.hitReadingKeyVersion) {
    const decision = store.hit(key, limit, windowMs, now.getTime());
    decision.catch(() => {}); // awaited by admit if authentication succeeds; else nobody waits for it
    return { key, decision, keyVersion: undefined };
  }
  const both = store.hitReadingKeyVersion(key, limit, windowMs, now.getTime());
  const decision = both.then((b) => b.decision);
  const keyVersion = both.then((b) => b.keyVersion);
  // authenticate awaits the version (and answers its failure); admit the decision, if authenticated
  decision.catch(() => {});
  keyVersion.catch(() => {});
  return { key, decision, keyVersion };
}

/**
 * Whether the route refuses this actor (403 naming what is needed): a key by the route's scope; a person
 * by the route's roles (API.md §11, access/) — none declared refuses them, but for the session's own
 * routes (`sessionOnly`) — after reading the record a `/<collection>/:id` route acts on as them, so one
 * they do not see is 404 rather than 403.
 */
export async function refusalFor(
  ctx: Ctx,
  config: FastifyContextConfig | undefined,
  params: unknown,
): Promise<AppError | undefined> {
  const { actor } = ctx;
  if (actor.type === "api_key") {
    const needed = config?.scope;
    if (!needed || scopeAllows(actor.scope, needed)) return undefined;
    return new AppError("forbidden", `This endpoint needs the ${needed} scope; this key has ${actor.scope}`);
  }
  if (actor.type !== "user" || config?.sessionOnly) return undefined;
  try {
    await requireRouteRole(ctx, actor, config, params);
    return undefined;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}

/** The key or session behind the request, or 401; each 401 counts against the client IP (API.md §3). */
async function identify(
  deps: PipelineDeps,
  req: FastifyRequest,
  key: PresentedKey,
  now: Date,
  early: EarlyCount | undefined,
): Promise<{ actor: Actor; session?: ActiveSession }> {
  try {
    const cookies = req.headers.cookie;
    if (key.header !== undefined || !hasSessionCookie(cookies)) {
      return { actor: await authenticate(deps.db, deps.keys, deps.env, key, now, early?.keyVersion) };
    }
    const token = sessionTokenOf(cookies);
    const session = token === undefined ? undefined : await resumeSession(deps.db, token, now, deps.sessions);
    if (!session) throw sessionEnded();
    return { actor: session.actor, session };
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== "unauthorized") throw err;
    if (isSessionProbe(req)) throw err;
    const refused = await countFailedAuth(deps.rateLimits, req.ip, now.getTime());
    if (refused) {
      req.ipLimited = true;
      throw refused;
    }
    throw err;
  }
}

/**
 * "Am I signed in?" with nothing presented: the console asks it on every signed-out page load. It
 * guesses nothing, so it is not a failed authentication (else 30 page loads a minute from one office's
 * address would lock everyone there out of signing in); a bad key or cookie on it still counts.
 */
function isSessionProbe(req: FastifyRequest): boolean {
  return (
    req.method === "GET" &&
    matchedRoute(req).url === "/api/v1/auth/session" &&
    req.headers.authorization === undefined &&
    !hasSessionCookie(req.headers.cookie)
  );
}

/** Fresh ids for every request; an incoming Request-Id header is never trusted. */
export function requestIdGenerator(): string {
  return newId("req");
}
