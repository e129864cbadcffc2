import { MAY } from "../access/index.js";
import { noImpact, reportingChangeImpact, reportingTarget } from "../commissions/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { proposeReportingLines, type ReportingChangeBody } from "../users/index.js";
import { impactParts } from "./impact.js";
import type { PlanImpactQuery, ReportingImpact } from "./schema.js";

/**
 * POST /users/{id}/reporting-lines/impact (API.md §16): a PATCH's manager change or a PUT's history,
 * checked as they check it, and what it would do to pending override lines — §12's impact, with
 * nothing written. Locked lines never move with a reporting change, so `locked` is always 0. It is a
 * plan-change impact's kind of answer, so it is built here with that one's presenter.
 */
export async function previewReportingChange(
  ctx: Ctx,
  id: string,
  body: ReportingChangeBody,
  query: PlanImpactQuery,
): Promise<ReportingImpact> {
  requireScope(ctx, "admin", MAY.previewPlanChange);
  return withTransaction(ctx, async (tx) => {
    const proposed = await proposeReportingLines(tx, ctx, id, body);
    const impact =
      proposed.ranges.length === 0
        ? noImpact()
        : await reportingChangeImpact(
            tx,
            await reportingTarget(tx, { user_id: id, ranges: proposed.ranges }),
            new Map([[id, proposed.after.map((l) => ({ ...l, user_id: id }))]]),
          );
    return {
      user_id: id,
      lines_before: proposed.before,
      lines_after: proposed.after,
      ...(await impactParts(tx, impact, query)),
    };
  });
}
