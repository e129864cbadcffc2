import { seesUser, visibleUserIds } from "../access/index.js";
import { audit } from "../audit/record.js";
import { type DateRange, lockForRecalc, recalculate } from "../commissions/index.js";
import { type Ctx, requireScope, type Tx, withTransaction } from "../context.js";
import { conflict, notFound, validationError } from "../errors.js";
import { offsetOf, type Page } from "../http/pagination.js";
import { newId } from "../ids.js";
import { compareTexts, parse, sign } from "../money/index.js";
import * as repo from "./assignments-repository.js";
import { findPlanRecord, lockPlanRecord, type PlanRecord, planSeen } from "./repository.js";
import type {
  Assignment,
  AssignmentWritten,
  CreateAssignmentBody,
  ListAssignmentsQuery,
  UpdateAssignmentBody,
} from "./schema.js";

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
  const { rows, total } = await repo.listAssignments(ctx.db, planId, query, visible, limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}

interface Span {
  effective_from: string;
  effective_to: string | null;
  quota_override: string | null;
}

function checkSpan(plan: PlanRecord, span: Span): void {
  if (span.effective_to !== null && span.effective_to < span.effective_from) {
    throw validationError("effective_to", `must be on or after effective_from (${span.effective_from})`);
  }
  if (span.quota_override !== null && plan.tiers.length > 0 && sign(parse(span.quota_override)) <= 0) {
    throw validationError("quota_override", `must be greater than 0: plan ${plan.id} has tiers`);
  }
}

/** 409 when the user already has an assignment in force on a day of the span (checked under the user's lock). */
async function checkOverlap(tx: Tx, userId: string, span: Span, exceptId: string | null): Promise<void> {
  const other = await repo.overlapping(tx, userId, span.effective_from, span.effective_to, exceptId);
  if (other) {
    const to = other.effective_to ?? "open-ended";
    throw conflict(
      `User ${userId} already has assignment ${other.id} (plan ${other.plan_id}) in force ${other.effective_from} to ${to}, which overlaps; a user has at most one assignment on any date`,
    );
  }
}

const rangeOf = (s: Span): DateRange => ({ from: s.effective_from, to: s.effective_to });

export async function createAssignment(
  ctx: Ctx,
  planId: string,
  input: CreateAssignmentBody,
): Promise<AssignmentWritten> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    await lockForRecalc(tx);
    const plan = await lockPlanRecord(tx, planId);
    if (!plan) throw notFound("Comp plan", planId);
    const span = {
      effective_from: input.effective_from,
      effective_to: input.effective_to ?? null,
      quota_override: input.quota_override ?? null,
    };
    checkSpan(plan, span);
    const users = await lockForRecalc(tx, { users: [input.user_id] });
    if (!users.has(input.user_id)) throw validationError("user_id", `user ${input.user_id} does not exist`);
    await checkOverlap(tx, input.user_id, span, null);
    const assignment = await repo.insertAssignment(tx, {
      id: newId("asg", ctx.now.getTime()),
      plan_id: planId,
      user_id: input.user_id,
      ...span,
      created_at: ctx.now,
      updated_at: ctx.now,
    });
    await audit(tx, ctx, {
      action: "plan_assignment.create",
      resource: "plan_assignment",
      resourceId: assignment.id,
      after: assignment,
    });
    const { jobId } = await recalculate(tx, ctx, [{ type: "user", user_id: input.user_id, ranges: [rangeOf(span)] }]);
    return { ...assignment, recalculation_job_id: jobId };
  });
}

/** Locks in the global order (SPIFFs, plan, user, assignment) and returns the assignment and its plan. */
async function lockExisting(tx: Tx, id: string): Promise<{ assignment: Assignment; plan: PlanRecord }> {
  await lockForRecalc(tx);
  const found = await repo.findAssignment(tx, id);
  if (!found) throw notFound("Plan assignment", id);
  const plan = await lockPlanRecord(tx, found.plan_id);
  await lockForRecalc(tx, { users: [found.user_id] });
  const assignment = await repo.lockAssignment(tx, id);
  if (!assignment || !plan) throw notFound("Plan assignment", id);
  return { assignment, plan };
}

function spanOf(a: Assignment): Span {
  const quota = a.quota_override === null ? null : String(a.quota_override);
  return { effective_from: a.effective_from, effective_to: a.effective_to, quota_override: quota };
}

/** An assignment as GET /comp-plans/{id}/assignments lists it (its If-Match representation). */
export async function getAssignment(ctx: Ctx, id: string): Promise<Assignment> {
  requireScope(ctx, "read");
  const found = await repo.findAssignment(ctx.db, id);
  if (!found || !(await seesUser(ctx, found.user_id))) throw notFound("Plan assignment", id);
  return found;
}

export async function updateAssignment(ctx: Ctx, id: string, input: UpdateAssignmentBody): Promise<AssignmentWritten> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    const { assignment: before, plan } = await lockExisting(tx, id);
    await ctx.precondition?.(tx);
    const old = spanOf(before);
    const span: Span = {
      effective_from: input.effective_from ?? old.effective_from,
      effective_to: input.effective_to === undefined ? old.effective_to : input.effective_to,
      quota_override: input.quota_override === undefined ? old.quota_override : input.quota_override,
    };
    checkSpan(plan, span);
    const sameQuota =
      (span.quota_override === null) === (old.quota_override === null) &&
      (span.quota_override === null || compareTexts(span.quota_override, old.quota_override!) === 0);
    if (sameQuota && span.effective_from === old.effective_from && span.effective_to === old.effective_to) {
      return { ...before, recalculation_job_id: null };
    }
    await checkOverlap(tx, before.user_id, span, id);
    const after = await repo.updateAssignment(tx, id, { ...span, updated_at: ctx.now });
    await audit(tx, ctx, {
      action: "plan_assignment.update",
      resource: "plan_assignment",
      resourceId: id,
      before,
      after,
    });
    const ranges = [rangeOf(old), rangeOf(span)];
    const { jobId } = await recalculate(tx, ctx, [{ type: "user", user_id: before.user_id, ranges }]);
    return { ...after, recalculation_job_id: jobId };
  });
}

/** Returns the recalculation job id, if the change went to the background. */
export async function deleteAssignment(ctx: Ctx, id: string): Promise<string | null> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    const { assignment } = await lockExisting(tx, id);
    await repo.deleteAssignment(tx, id);
    await audit(tx, ctx, {
      action: "plan_assignment.delete",
      resource: "plan_assignment",
      resourceId: id,
      before: assignment,
    });
    const ranges = [rangeOf(spanOf(assignment))];
    const { jobId } = await recalculate(tx, ctx, [{ type: "user", user_id: assignment.user_id, ranges }]);
    return jobId;
  });
}
