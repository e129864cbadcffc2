import type { FastifyContextConfig, FastifyReply, FastifyRequest } from "fastify";
import { requireRouteRole } from "../access/index.js";
import {
  authenticate,
  authenticateCached,
  type KeyCache,
  knownKeyId,
  type PresentedKey,
  presentedKey,
} from "../api-keys/index.js";
import { type Actor, type Ctx, makeCtx, scopeAllows, type UserActor } from "../context.js";
import type { Db } from "../db/schema.js";
import { AppError } from "../errors.js";
import { headerSentOnce } from "../http/headers.js";
import { matchedRoute } from "../http/matched-route.js";
import { rateLimitRejections } from "../metrics.js";
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
import {
  type ActiveSession,
  hasSessionCookie,
  resumeSession,
  type SessionSettings,
  sessionTokenOf,
} from "../sessions/index.js";
import { csrfRefusal, sessionEnded, sessionOnly } from "./session-gate.js";

/** What admission reads: the pipeline's dependencies (pipeline.ts `PipelineDeps`) that decide who may call. */
export interface AdmissionDeps {
  db: Db;
  keys: KeyCache;
  env: string;
  rateLimits: RateLimitStore;
  perKey: Limit;
  /** CTS_SESSION_IDLE_MINUTES and CTS_SESSION_MAX_HOURS: how long a session cookie signs its person in. */
  sessions: SessionSettings;
  clock: () => Date;
}

/**
 * 401 → 429 → 403, before any validation (API.md §2 "Checks run in this order"); then the request's ctx.
 * A request with an Authorization header is a key's, whatever cookies it carries; without one, the
 * session cookie signs in its person (API.md §11), whose unsafe methods also pass the CSRF check (a 403,
 * after the rate limit and before the role check).
 *
 * The pipeline's onRequest hook: `done()` once admitted, `done(refusal)` else. Decided before it returns
 * when nothing has to be waited for — a key the cache trusts as it is and a rate-limit log in this
 * process (embedded: `KeyCache.trusted`, `MemoryStore.hitNow`), the same checks in the same order as
 * `admit`, without a promise or a microtask hop; anything else goes through `admit`.
 */
export function admitRequest(
  deps: AdmissionDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  done: (err?: Error) => void,
): void {
  let refused: Error | undefined;
  try {
    const now = deps.clock();
    // Sent twice → 400 before anything is counted; the key is hashed here once for the cache and the lookup.
    const key = presentedKey(headerSentOnce(req.raw.rawHeaders, "authorization", "Authorization"));
    const store = deps.rateLimits;
    const actor = store.hitNow ? authenticateCached(deps.db, deps.keys, deps.env, key, now) : undefined;
    if (actor?.type !== "api_key") {
      admit(deps, req, reply, key, now).then(() => done(), done);
      return;
    }
    req.actor = actor;
    const { limit, windowMs } = deps.perKey;
    const decision = store.hitNow!(`key:${actor.keyId}`, limit, windowMs, now.getTime());
    limitAndGate(deps, req, reply, actor, undefined, decision);
    refused = keyRefusal(actor, matchedRoute(req).config);
    if (!refused) req.ctx = makeCtx(deps.db, deps.env, actor, req.id, now);
  } catch (err) {
    refused = err as Error;
  }
  // Outside the try: `done` runs the rest of the request, whose errors are not admission's.
  done(refused);
}

/** Admission that waits: the session's or the key's read, the rate limit's store (see `admitRequest`). */
async function admit(
  deps: AdmissionDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  key: PresentedKey,
  now: Date,
): Promise<void> {
  const early = earlyKeyCount(deps, key, now);
  const who = await identify(deps, req, key, now, early);
  const { actor } = who;
  req.actor = actor;
  req.session = who.session;
  const [limit, counted] =
    actor.type === "api_key" ? [deps.perKey, `key:${actor.keyId}`] : [PER_USER, `user:${(actor as UserActor).userId}`];
  const decision =
    early?.key === counted
      ? await early.decision
      : await deps.rateLimits.hit(counted, limit.limit, limit.windowMs, now.getTime());
  limitAndGate(deps, req, reply, actor, who.session, decision);
  const ctx = makeCtx(deps.db, deps.env, actor, req.id, now);
  const refusal = await refusalFor(ctx, matchedRoute(req).config, req.params);
  if (refusal) throw refusal;
  req.ctx = ctx;
}

/** The rate limit's headers and its 429, then the session's CSRF check or a session-only route's 403. */
function limitAndGate(
  deps: AdmissionDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  actor: Actor,
  session: ActiveSession | undefined,
  decision: Decision,
): void {
  const byKey = actor.type === "api_key";
  const limit = byKey ? deps.perKey : PER_USER;
  const name = byKey ? "per-key" : "per-user";
  reply.header("RateLimit-Policy", policyHeader(limit, name));
  reply.header("RateLimit", stateHeader(decision, name));
  if (!decision.allowed) {
    rateLimitRejections.inc({ limiter: byKey ? "key" : "user" });
    const whose = byKey ? "this key" : "this user";
    throw tooManyRequests(
      decision.resetSeconds,
      `Rate limit of ${limit.limit} requests per minute exceeded for ${whose}`,
    );
  }
  if (session) {
    const csrf = csrfRefusal(req, session);
    if (csrf) throw csrf;
  } else if (matchedRoute(req).config?.sessionOnly) {
    throw sessionOnly();
  }
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
function earlyKeyCount(deps: AdmissionDeps, presented: PresentedKey, now: Date): EarlyCount | undefined {
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
  if (actor.type === "api_key") return keyRefusal(actor, config);
  if (actor.type !== "user" || config?.sessionOnly) return undefined;
  try {
    await requireRouteRole(ctx, actor, config, params);
    return undefined;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}

type ApiKeyActor = Extract<Actor, { type: "api_key" }>;

/** A key's 403: the route's scope is more than the key's. */
function keyRefusal(actor: ApiKeyActor, config: FastifyContextConfig | undefined): AppError | undefined {
  const needed = config?.scope;
  if (!needed || scopeAllows(actor.scope, needed)) return undefined;
  return new AppError("forbidden", `This endpoint needs the ${needed} scope; this key has ${actor.scope}`);
}

/** The key or session behind the request, or 401; each 401 counts against the client IP (API.md §3). */
async function identify(
  deps: AdmissionDeps,
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
