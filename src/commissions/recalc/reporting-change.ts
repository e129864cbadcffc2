import type { Ctx, Tx } from "../../context.js";
import type { ReportingChange } from "../../users/index.js";
import { everBelow } from "./overrides-repository.js";
import { recalculate } from "./recalculate.js";
import type { RecalcTarget } from "./types.js";

/** What a change of a user's reporting line reaches: override lines of deals credited to them or anyone ever below them. */
export async function reportingTarget(db: Tx, change: ReportingChange): Promise<RecalcTarget> {
  const below = await everBelow(db, [change.user_id]);
  return { type: "overrides", user_ids: [change.user_id, ...below].sort(), ranges: change.ranges };
}

/** Recalculates the pending override lines a reporting change moves (inline, or a job past the limit). */
export async function recalculateReportingChange(tx: Tx, ctx: Ctx, change: ReportingChange) {
  return recalculate(tx, ctx, [await reportingTarget(tx, change)]);
}
