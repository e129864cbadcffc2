import { sql } from "kysely";
import type { Tx } from "../context.js";

export interface PasswordResetRow {
  id: string;
  user_id: string;
  expires_at: Date;
  used_at: Date | null;
}

/** The active user with this email (lower-cased), locked: a reset is queued for them or nobody. */
export async function lockActiveUserByEmail(
  tx: Tx,
  email: string,
): Promise<{ id: string; email: string; name: string } | undefined> {
  const { rows } = await sql<{ id: string; email: string; name: string }>`
    SELECT id, email, name FROM users WHERE lower(email) = ${email} AND active FOR UPDATE`.execute(tx);
  return rows[0];
}

/** A new reset; the user's earlier unused ones stop working (only the latest link resets). */
export async function replaceResets(
  tx: Tx,
  row: { id: string; user_id: string; token_hash: string; expires_at: Date; created_at: Date },
): Promise<void> {
  await sql`UPDATE password_resets SET used_at = ${row.created_at} WHERE user_id = ${row.user_id} AND used_at IS NULL`.execute(
    tx,
  );
  await sql`INSERT INTO password_resets (id, user_id, token_hash, expires_at, created_at)
    VALUES (${row.id}, ${row.user_id}, ${row.token_hash}, ${row.expires_at}, ${row.created_at})`.execute(tx);
}

export async function lockResetByTokenHash(tx: Tx, tokenHash: string): Promise<PasswordResetRow | undefined> {
  const { rows } = await sql<PasswordResetRow>`
    SELECT id, user_id, expires_at, used_at FROM password_resets WHERE token_hash = ${tokenHash} FOR UPDATE`.execute(
    tx,
  );
  return rows[0];
}

export async function markResetUsed(tx: Tx, id: string, now: Date): Promise<void> {
  await sql`UPDATE password_resets SET used_at = ${now} WHERE id = ${id}`.execute(tx);
}
