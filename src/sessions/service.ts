import type { UserActor } from "../context.js";
import type { Db } from "../db/schema.js";
import { newId } from "../ids.js";
import { endOpenSessions, findOpenSession, findOpenSessionId, insertSession, touchSession } from "./repository.js";
import { csrfTokenOf, newToken, sha256Hex } from "./tokens.js";

/** CTS_SESSION_IDLE_MINUTES and CTS_SESSION_MAX_HOURS (API.md §11). */
export interface SessionSettings {
  idleMinutes: number;
  maxHours: number;
}

export const DEFAULT_SESSION_SETTINGS: SessionSettings = { idleMinutes: 480, maxHours: 168 };

/** What a sign-in hands the person: the cookie's value (never stored), its CSRF token, when it ends. */
export interface SignedIn {
  sessionId: string;
  token: string;
  csrfToken: string;
  /** When the session ends if left unused: the idle timeout, or the absolute one if sooner. */
  expiresAt: Date;
  /** The absolute timeout: the cookie is kept until then. */
  endsAt: Date;
}

export interface ActiveSession {
  actor: UserActor;
  csrfToken: string;
  expiresAt: Date;
}

// last_seen_at is written at most once a minute per session: the idle timeout is minutes to hours.
const TOUCH_INTERVAL_MS = 60_000;

function expiryOf(lastSeen: Date, endsAt: Date, settings: SessionSettings): Date {
  const idle = new Date(lastSeen.getTime() + settings.idleMinutes * 60_000);
  return idle < endsAt ? idle : endsAt;
}

/** A new session for the user: a new id at every sign-in, so no id chosen before it survives (fixation). */
export async function startSession(db: Db, userId: string, now: Date, settings: SessionSettings): Promise<SignedIn> {
  const token = newToken();
  const endsAt = new Date(now.getTime() + settings.maxHours * 3_600_000);
  const sessionId = newId("ses", now.getTime());
  await insertSession(db, {
    id: sessionId,
    user_id: userId,
    token_hash: sha256Hex(token),
    created_at: now,
    last_seen_at: now,
    expires_at: endsAt,
  });
  return { sessionId, token, csrfToken: csrfTokenOf(token), expiresAt: expiryOf(now, endsAt, settings), endsAt };
}

/**
 * The person a session token signs in, read from the database on every request, so that logout,
 * revocation, deactivation and a role change bite on the next request in every process.
 */
export async function resumeSession(
  db: Db,
  token: string,
  now: Date,
  settings: SessionSettings,
): Promise<ActiveSession | undefined> {
  const idleSince = new Date(now.getTime() - settings.idleMinutes * 60_000);
  const row = await findOpenSession(db, sha256Hex(token), now, idleSince);
  if (!row) return undefined;
  let lastSeen = new Date(row.last_seen_at);
  if (now.getTime() - lastSeen.getTime() >= TOUCH_INTERVAL_MS) {
    await touchSession(db, row.id, now);
    lastSeen = now;
  }
  return {
    actor: { type: "user", userId: row.user_id, name: row.name, role: row.role, sessionId: row.id },
    csrfToken: csrfTokenOf(token),
    expiresAt: expiryOf(lastSeen, new Date(row.expires_at), settings),
  };
}

/** Why sessions end, as recorded on the row ("replaced": the browser signed in again over it). */
export type EndReason = "logout" | "password_change" | "deactivated" | "role_change" | "revoked" | "replaced";

export function endSession(db: Db, sessionId: string, now: Date, reason: EndReason): Promise<number> {
  return endOpenSessions(db, { sessionId }, now, reason);
}

/** Ends the open session this token belongs to, if any (a sign-in replacing the one the browser held). */
export async function endSessionByToken(db: Db, token: string, now: Date, reason: EndReason): Promise<number> {
  const open = await findOpenSessionId(db, sha256Hex(token));
  return open === undefined ? 0 : endOpenSessions(db, { sessionId: open }, now, reason);
}

/** Ends every open session of the user, but `except` (the session changing its own password). */
export function endSessionsOf(db: Db, userId: string, now: Date, reason: EndReason, except?: string): Promise<number> {
  return endOpenSessions(db, { userId, ...(except === undefined ? {} : { except }) }, now, reason);
}
