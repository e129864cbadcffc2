import { seesUser } from "../access/index.js";
import { type Ctx, requireScope } from "../context.js";
import { notFound } from "../errors.js";
import { existingUserIds } from "../users/index.js";
import { Dec, toCents } from "./calculate.js";
import * as repo from "./repository.js";
import type { Commission, Statement } from "./schema.js";

type Totals = Statement["totals"];

function totalsOf(lines: Commission[]): Totals {
  const sums = { plan: new Dec(0), spiff: new Dec(0), adjustment: new Dec(0) };
  for (const line of lines) sums[line.kind] = sums[line.kind].plus(line.amount.toFixed(2));
  const total = sums.plan.plus(sums.spiff).plus(sums.adjustment);
  const n = (d: Dec) => Number(d.toFixed(2));
  return { plan: n(sums.plan), spiff: n(sums.spiff), adjustment: n(sums.adjustment), total: n(total) };
}

/**
 * Per plan: the quota of its latest-calculated line and the credit booked under it in the period
 * (every non-void plan line stands for one counted deal credit, pending or locked).
 */
function plansOf(lines: Commission[]): Statement["plans"] {
  const plans = new Map<string, { quota: string | null; at: string; credit: Dec }>();
  for (const line of lines) {
    if (line.kind !== "plan" || !line.plan_id) continue;
    const e = line.explanation as { quota?: string | null; credit?: string };
    const seen = plans.get(line.plan_id) ?? { quota: null, at: "", credit: new Dec(0) };
    if (line.calculated_at >= seen.at) Object.assign(seen, { quota: e.quota ?? null, at: line.calculated_at });
    seen.credit = seen.credit.plus(e.credit ?? 0);
    plans.set(line.plan_id, seen);
  }
  return [...plans.entries()].map(([plan_id, p]) => {
    const quota = p.quota === null ? null : new Dec(p.quota);
    return {
      plan_id,
      quota: quota === null ? null : Number(toCents(quota)),
      attainment: Number(toCents(p.credit)),
      attainment_ratio: quota === null || quota.isZero() ? null : Number(p.credit.dividedBy(quota).toDecimalPlaces(4)),
    };
  });
}

/** A user's statement for one period: their non-void lines whose period equals it, and the totals. */
export async function getStatement(ctx: Ctx, userId: string, period: string): Promise<Statement> {
  requireScope(ctx, "read");
  const seen = (await seesUser(ctx, userId)) && (await existingUserIds(ctx.db, [userId])).has(userId);
  if (!seen) throw notFound("User", userId);
  const lines = await repo.statementLines(ctx.db, userId, period);
  return { user_id: userId, period, plans: plansOf(lines), lines, totals: totalsOf(lines) };
}
