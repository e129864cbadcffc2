import type { Db } from "../db/schema.js";
import { endOpenSessions, findOpenSessionId } from "./repository.js";
import { sha256Hex } from "./tokens.js";

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
