import { type Ctx, requireScope } from "../context.js";
import { offsetOf, type Page } from "../http/pagination.js";
import * as repo from "./repository.js";
import type { ListSpiffsQuery, Spiff } from "./schema.js";

export async function listSpiffs(ctx: Ctx, query: ListSpiffsQuery): Promise<Page<Spiff>> {
  requireScope(ctx, "read");
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listSpiffs(ctx.db, query, limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}
