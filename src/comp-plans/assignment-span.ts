import type { DateRange } from "../commissions/index.js";
import type { Tx } from "../context.js";
import { conflict, validationError } from "../errors.js";
import { checkMinorUnits } from "../http/commission-fields.js";
import { parse, sign } from "../money/index.js";
import * as repo from "./assignments-repository.js";
import type { PlanRecord } from "./repository.js";
import type { Assignment } from "./schema.js";

// An assignment's span (its dates and quota): the checks a write runs on it and the range it recalculates.

export interface Span {
  effective_from: string;
  effective_to: string | null;
  quota_override: string | null;
}

export function checkSpan(plan: PlanRecord, span: Span): void {
  if (span.effective_to !== null && span.effective_to < span.effective_from) {
    throw validationError("effective_to", `must be on or after effective_from (${span.effective_from})`);
  }
  if (span.quota_override !== null && plan.kind === "override") {
    throw validationError("quota_override", `is not allowed: plan ${plan.id} is an override plan, which has no quota`);
  }
  if (span.quota_override !== null && plan.tiers.length > 0 && sign(parse(span.quota_override)) <= 0) {
    throw validationError("quota_override", `must be greater than 0: plan ${plan.id} has tiers`);
  }
  checkMinorUnits(plan.currency, { quota_override: span.quota_override });
}

/**
 * 409 when the user already has an assignment to a plan of the same kind in force on a day of the span
 * (checked under the user's lock): a standard and an override assignment may overlap (API.md §16).
 */
export async function checkOverlap(
  tx: Tx,
  userId: string,
  plan: PlanRecord,
  span: Span,
  exceptId: string | null,
): Promise<void> {
  const other = await repo.overlapping(tx, userId, plan.kind, span.effective_from, span.effective_to, exceptId);
  if (other) {
    const to = other.effective_to ?? "open-ended";
    throw conflict(
      `User ${userId} already has assignment ${other.id} (plan ${other.plan_id}) in force ${other.effective_from} to ${to}, which overlaps; a user has at most one assignment per plan kind (${plan.kind}) on any date`,
    );
  }
}

export const rangeOf = (s: Span): DateRange => ({ from: s.effective_from, to: s.effective_to });

export function spanOf(a: Assignment): Span {
  const quota = a.quota_override === null ? null : String(a.quota_override);
  return { effective_from: a.effective_from, effective_to: a.effective_to, quota_override: quota };
}
