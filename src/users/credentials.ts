import type { Tx } from "../context.js";
import type { Db } from "../db/schema.js";
import * as repo from "./credentials-repository.js";

// Sign-in and password setting's view of users: the only services that see a password hash.
export type { UserWithPassword } from "./credentials-repository.js";

/** The user, locked until the transaction ends (so a deactivation cannot slip between check and write). */
export function lockUserWithPassword(tx: Tx, id: string): Promise<repo.UserWithPassword | undefined> {
  return repo.lockUserWithPassword(tx, id);
}

/** The user's email, read without a lock (the key of its failed password checks). */
export function emailOfUser(db: Db, id: string): Promise<string | undefined> {
  return repo.emailOfUser(db, id);
}

/** What a sign-in needs of the account with this (lower-cased) email. */
export function credentialsByEmail(db: Db, email: string): ReturnType<typeof repo.credentialsByEmail> {
  return repo.credentialsByEmail(db, email);
}

export function setPasswordHash(db: Db, userId: string, hash: string, now: Date): Promise<void> {
  return repo.setPasswordHash(db, userId, hash, now);
}
