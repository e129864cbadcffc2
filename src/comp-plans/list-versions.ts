import type { Ctx } from "../context.js";
import { offsetOf, type Page } from "../http/pagination.js";
import { getPlan } from "./read.js";
import * as repo from "./repository.js";
import type { ListPlanVersionsQuery, PlanVersion } from "./schema.js";

/** Every version of a plan, newest first, for whoever sees the plan (404 otherwise, as GET /comp-plans/{id}). */
export async function listPlanVersions(ctx: Ctx, id: string, query: ListPlanVersionsQuery): Promise<Page<PlanVersion>> {
  await getPlan(ctx, id);
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listVersions(ctx.db, id, limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}
