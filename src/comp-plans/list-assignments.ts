import { seesUser, visibleUserIds } from "../access/index.js";
import { type Ctx, requireScope } from "../context.js";
import { notFound } from "../errors.js";
import { offsetOf, type Page } from "../http/pagination.js";
import * as repo from "./assignments-repository.js";
import { findPlanRecord, planSeen } from "./repository.js";
import type { Assignment, ListAllAssignmentsQuery, ListAssignmentsQuery } from "./schema.js";

export async function listAssignments(
  ctx: Ctx,
  planId: string,
  query: ListAssignmentsQuery,
): Promise<Page<Assignment>> {
  requireScope(ctx, "read");
  const visible = await visibleUserIds(ctx);
  const seen = (await findPlanRecord(ctx.db, planId)) && (await planSeen(ctx.db, planId, visible));
  if (!seen) throw notFound("Comp plan", planId);
  const { limit, offset } = offsetOf(query);
  const filter = { plan_id: planId, user_id: query.user_id };
  const { rows, total } = await repo.listAssignments(ctx.db, filter, visible, limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}

/**
 * `GET /plan-assignments`: every plan's assignments the caller sees (a person's own or their subtree's),
 * in one list, so "how many are there" is one request (`meta.total`) however many plans exist.
 */
export async function listAllAssignments(ctx: Ctx, query: ListAllAssignmentsQuery): Promise<Page<Assignment>> {
  requireScope(ctx, "read");
  const visible = await visibleUserIds(ctx);
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listAssignments(ctx.db, query, visible, limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}

/** An assignment as GET /comp-plans/{id}/assignments lists it (its If-Match representation). */
export async function getAssignment(ctx: Ctx, id: string): Promise<Assignment> {
  requireScope(ctx, "read");
  const found = await repo.findAssignment(ctx.db, id);
  if (!found || !(await seesUser(ctx, found.user_id))) throw notFound("Plan assignment", id);
  return found;
}
