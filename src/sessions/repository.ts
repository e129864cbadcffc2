import type { Insertable } from "kysely";
import type { Role } from "../context.js";
import type { Db, SessionsTable } from "../db/schema.js";

export interface OpenSession {
  id: string;
  user_id: string;
  last_seen_at: Date;
  expires_at: Date;
  name: string;
  role: Role;
}

export async function insertSession(db: Db, row: Insertable<SessionsTable>): Promise<void> {
  await db.insertInto("sessions").values(row).execute();
}

/** The session with this hash if it is open, unexpired, idle less than `idleSince`, and its user active. */
export async function findOpenSession(
  db: Db,
  tokenHash: string,
  now: Date,
  idleSince: Date,
): Promise<OpenSession | undefined> {
  return db
    .selectFrom("sessions as s")
    .innerJoin("users as u", "u.id", "s.user_id")
    .select(["s.id", "s.user_id", "s.last_seen_at", "s.expires_at", "u.name", "u.role"])
    .where("s.token_hash", "=", tokenHash)
    .where("s.ended_at", "is", null)
    .where("s.expires_at", ">", now)
    .where("s.last_seen_at", ">", idleSince)
    .where("u.active", "=", true)
    .executeTakeFirst() as Promise<OpenSession | undefined>;
}

export async function findOpenSessionId(db: Db, tokenHash: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("sessions")
    .select("id")
    .where("token_hash", "=", tokenHash)
    .where("ended_at", "is", null)
    .executeTakeFirst();
  return row?.id;
}

export async function touchSession(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable("sessions").set({ last_seen_at: now }).where("id", "=", id).execute();
}

/** Ends the user's open sessions (but `except`); returns how many it ended. */
export async function endOpenSessions(
  db: Db,
  where: { userId?: string; sessionId?: string; except?: string },
  now: Date,
  reason: string,
): Promise<number> {
  let query = db.updateTable("sessions").set({ ended_at: now, ended_reason: reason }).where("ended_at", "is", null);
  if (where.userId !== undefined) query = query.where("user_id", "=", where.userId);
  if (where.sessionId !== undefined) query = query.where("id", "=", where.sessionId);
  if (where.except !== undefined) query = query.where("id", "!=", where.except);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
