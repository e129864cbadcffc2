import { type Ctx, requireScope, type Tx } from "../context.js";
import { notFound } from "../errors.js";
import { offsetOf, type Page } from "../http/pagination.js";
import * as repo from "./repository.js";
import type { Dispute, ListDisputesQuery } from "./schema.js";

export type { DisputeRow } from "./repository.js";
export { insertDispute, lockDispute, resolveDispute, toDispute } from "./repository.js";

export async function listDisputes(ctx: Ctx, query: ListDisputesQuery): Promise<Page<Dispute>> {
  requireScope(ctx, "read");
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listDisputes(ctx.db, query, limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}

export async function disputeOf(db: Ctx["db"] | Tx, id: string): Promise<Dispute> {
  const row = await repo.findDispute(db, id);
  if (!row) throw notFound("Dispute", id);
  return repo.toDispute(row);
}

export async function getDispute(ctx: Ctx, id: string): Promise<Dispute> {
  requireScope(ctx, "read");
  return disputeOf(ctx.db, id);
}
