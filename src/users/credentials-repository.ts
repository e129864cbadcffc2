import type { Tx } from "../context.js";
import type { Db } from "../db/schema.js";
import { toUser } from "./repository.js";
import type { User } from "./schema.js";

/** A user and the password hash the API never shows: for signing in and setting passwords only. */
export interface UserWithPassword {
  user: User;
  passwordHash: string | null;
}

/** The user, locked until the transaction ends (so a deactivation cannot slip between check and write). */
export async function lockUserWithPassword(tx: Tx, id: string): Promise<UserWithPassword | undefined> {
  const row = await tx.selectFrom("users").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
  return row && { user: toUser(row), passwordHash: row.password_hash };
}

/** The user's email, read without a lock (the key of its failed password checks). */
export async function emailOfUser(db: Db, id: string): Promise<string | undefined> {
  const row = await db.selectFrom("users").select("email").where("id", "=", id).executeTakeFirst();
  return row?.email;
}

/** What a sign-in needs of the account with this (lower-cased) email. */
export function credentialsByEmail(
  db: Db,
  email: string,
): Promise<{ id: string; active: boolean; password_hash: string | null } | undefined> {
  return db
    .selectFrom("users")
    .select(["id", "active", "password_hash"])
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", email))
    .executeTakeFirst();
}

export async function setPasswordHash(db: Db, userId: string, hash: string, now: Date): Promise<void> {
  await db
    .updateTable("users")
    .set({ password_hash: hash, password_changed_at: now })
    .where("id", "=", userId)
    .execute();
}
