import { type Selectable, sql } from "kysely";
import type { Tx } from "../context.js";
import type { Db, InvitationsTable, UsersTable } from "../db/schema.js";
import { toIso } from "../http/date-fields.js";
import type { User } from "../users/index.js";

export type InvitationRow = Selectable<InvitationsTable>;

/** A users row as the User the API shows, and the password hash it never shows. */
export interface UserWithPassword {
  user: User;
  passwordHash: string | null;
}

function toUserWithPassword(row: Selectable<UsersTable>): UserWithPassword {
  return {
    user: {
      id: row.id,
      external_id: row.external_id,
      name: row.name,
      email: row.email,
      role: row.role,
      manager_id: row.manager_id,
      active: row.active,
      created_at: toIso(row.created_at)!,
      updated_at: toIso(row.updated_at)!,
    },
    passwordHash: row.password_hash,
  };
}

/** The user, locked until the transaction ends (so a deactivation cannot slip between check and write). */
export async function lockUser(tx: Tx, id: string): Promise<UserWithPassword | undefined> {
  const row = await tx.selectFrom("users").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
  return row && toUserWithPassword(row);
}

/** Cancels every open (unused, uncancelled) invitation of the user; returns their ids. */
export async function cancelOpenInvitations(tx: Tx, userId: string, now: Date): Promise<string[]> {
  const rows = await tx
    .updateTable("invitations")
    .set({ cancelled_at: now })
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .where("cancelled_at", "is", null)
    .returning("id")
    .execute();
  return rows.map((r) => r.id).sort();
}

export async function insertInvitation(
  tx: Tx,
  row: { id: string; user_id: string; token_hash: string; expires_at: Date; created_at: Date },
): Promise<InvitationRow> {
  return tx
    .insertInto("invitations")
    .values({ ...row, used_at: null, cancelled_at: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The invitation whose token hashes to `tokenHash`, locked: a second accept of the same token waits, then sees it used. */
export async function lockInvitationByTokenHash(tx: Tx, tokenHash: string): Promise<InvitationRow | undefined> {
  return tx.selectFrom("invitations").selectAll().where("token_hash", "=", tokenHash).forUpdate().executeTakeFirst();
}

export async function markInvitationUsed(tx: Tx, id: string, now: Date): Promise<void> {
  await tx.updateTable("invitations").set({ used_at: now }).where("id", "=", id).execute();
}

export async function setPasswordHash(db: Db, userId: string, hash: string, now: Date): Promise<void> {
  // Plain SQL: the column is typed Generated<Timestamp | null> (optional on insert), which Kysely's
  // update type does not accept a Date for.
  await sql`UPDATE users SET password_hash = ${hash}, password_changed_at = ${now} WHERE id = ${userId}`.execute(db);
}
