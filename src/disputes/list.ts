import { visibleUserIds } from "../access/index.js";
import { type Ctx, requireScope } from "../context.js";
import { offsetOf, type Page } from "../http/pagination.js";
import * as repo from "./repository.js";
import type { Dispute, ListDisputesQuery } from "./schema.js";

export async function listDisputes(ctx: Ctx, query: ListDisputesQuery): Promise<Page<Dispute>> {
  requireScope(ctx, "read");
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listDisputes(ctx.db, query, await visibleUserIds(ctx), limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}
