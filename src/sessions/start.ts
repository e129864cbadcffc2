import type { Db } from "../db/schema.js";
import { newId } from "../ids.js";
import { insertSession } from "./repository.js";
import { expiryOf, type SessionSettings } from "./settings.js";
import { csrfTokenOf, newToken, sha256Hex } from "./tokens.js";

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
