import { visibleUserIds } from "../access/index.js";
import { type Ctx, requireScope, type Tx } from "../context.js";
import { notFound } from "../errors.js";
import * as repo from "./repository.js";
import type { Dispute } from "./schema.js";

export async function disputeOf(db: Ctx["db"] | Tx, id: string): Promise<Dispute> {
  const row = await repo.findDispute(db, id);
  if (!row) throw notFound("Dispute", id);
  return repo.toDispute(row);
}

/** A dispute is seen with its deal (API.md §11: a rep's disputes are those on deals they own or are credited on). */
export async function getDispute(ctx: Ctx, id: string): Promise<Dispute> {
  requireScope(ctx, "read");
  const row = await repo.findVisibleDispute(ctx.db, id, await visibleUserIds(ctx));
  if (!row) throw notFound("Dispute", id);
  return repo.toDispute(row);
}
