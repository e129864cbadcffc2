import { visibleUserIds } from "../access/index.js";
import { type Ctx, requireScope } from "../context.js";
import { offsetOf, type Page } from "../http/pagination.js";
import { drawsOf, todayOf } from "./records.js";
import * as repo from "./repository.js";
import type { Draw, ListDrawsQuery } from "./schema.js";

/** GET /draws: newest first; only the draws of people the caller sees (API.md §11). */
export async function listDraws(ctx: Ctx, query: ListDrawsQuery): Promise<Page<Draw>> {
  requireScope(ctx, "read");
  const { limit, offset } = offsetOf(query);
  const today = todayOf(ctx.now);
  const { rows, total } = await repo.listDraws(ctx.db, { ...query, today }, await visibleUserIds(ctx), limit, offset);
  return { data: await drawsOf(ctx.db, rows, today), meta: { page: query.page, per_page: query.per_page, total } };
}
