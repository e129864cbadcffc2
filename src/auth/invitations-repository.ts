import type { Selectable } from "kysely";
import type { Tx } from "../context.js";
import type { InvitationsTable } from "../db/schema.js";

export type InvitationRow = Selectable<InvitationsTable>;

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
