import { createHash, randomBytes } from "node:crypto";

/** 32 random bytes, base64url: a session id or an invitation token. Only its SHA-256 is ever stored. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

export function sha256Hex(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * The session's CSRF token, derived from the session id rather than stored: a page that cannot read
 * the HttpOnly cookie cannot compute it, and the stored hash (a different digest) does not yield it.
 */
export function csrfTokenOf(sessionToken: string): string {
  return createHash("sha256").update(`cts-csrf\0${sessionToken}`).digest("base64url");
}
