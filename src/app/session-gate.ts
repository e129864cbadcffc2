import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { AppError } from "../errors.js";
import type { ActiveSession } from "../sessions/index.js";

/**
 * A session cookie that no longer signs anyone in (unknown, malformed, signed out, revoked, idle or
 * past its absolute timeout): 401, and a failed authentication for the per-IP limiter like a bad key.
 * The challenge still names Bearer, the scheme a program would use; a person signs in again instead.
 */
export function sessionEnded(): AppError {
  return new AppError(
    "unauthorized",
    "Your session has ended (signed out, expired or revoked): sign in again at POST /api/v1/auth/login",
    undefined,
    { "WWW-Authenticate": 'Bearer realm="cts"' },
  );
}

/** A route only a signed-in person can call (GET /auth/session, POST /auth/logout), called with a key. */
export function sessionOnly(): AppError {
  return new AppError(
    "forbidden",
    "This endpoint is for a signed-in person's session; an API key has no session (send no Authorization header)",
  );
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Compared as fixed-length digests, so neither the token's length nor its prefix leaks through timing. */
function sameSecret(sent: string, expected: string): boolean {
  const a = createHash("sha256").update(sent).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * CSRF (API.md §11): a session's POST/PUT/PATCH/DELETE needs `X-CSRF-Token` equal to the session's
 * token and an `Origin`, when sent, equal to the service's own. Requests with a key never get here.
 */
export function csrfRefusal(req: FastifyRequest, session: ActiveSession): AppError | undefined {
  if (!UNSAFE.has(req.method)) return undefined;
  const token = req.headers["x-csrf-token"];
  const tokenOk = typeof token === "string" && sameSecret(token, session.csrfToken);
  return sameOrigin(req) && tokenOk ? undefined : csrfFailed();
}

/**
 * Login CSRF: a page elsewhere must not sign a browser in as someone (e.g. the attacker, to read what
 * the victim then enters). A sign-in route has no session yet, so only its `Origin`, when sent, is checked.
 */
export function signInCsrfRefusal(req: FastifyRequest): AppError | undefined {
  return !UNSAFE.has(req.method) || sameOrigin(req) ? undefined : csrfFailed();
}

function sameOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  return origin === undefined || origin === req.publicOrigin;
}

function csrfFailed(): AppError {
  return new AppError("forbidden", "CSRF check failed");
}
