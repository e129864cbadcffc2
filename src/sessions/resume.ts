import type { UserActor } from "../context.js";
import type { Db } from "../db/schema.js";
import { findOpenSession, touchSession } from "./repository.js";
import { expiryOf, type SessionSettings } from "./settings.js";
import { csrfTokenOf, sha256Hex } from "./tokens.js";

export interface ActiveSession {
  actor: UserActor;
  csrfToken: string;
  expiresAt: Date;
}

// last_seen_at is written at most once a minute per session: the idle timeout is minutes to hours.
const TOUCH_INTERVAL_MS = 60_000;

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
