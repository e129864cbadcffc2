import { type Ctx, requireScope } from "../context.js";
import type { Page, PageQuery } from "../http/pagination.js";
import { offsetOf } from "../http/pagination.js";
import * as repo from "./repository.js";
import type { ApiKey } from "./schema.js";

export async function listKeys(ctx: Ctx, query: PageQuery): Promise<Page<ApiKey>> {
  requireScope(ctx, "admin");
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listKeys(ctx.db, limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}
