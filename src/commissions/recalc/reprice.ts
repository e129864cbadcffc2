import type { Db } from "../../db/schema.js";
import { mapTurning } from "../../event-loop.js";
import { noPlanExplanation, type PlanInput } from "../engine/index.js";
import { bucketOf, byBucket, computePlaced, isMatch, land, matchCredit, uniqueBuckets } from "./compute.js";
import { loadBucketEntries } from "./entries-repository.js";
import { loadLockedLines } from "./locked-repository.js";
import { attachRates, currenciesOf } from "./rates-repository.js";
import { loadPlanContext } from "./terms-repository.js";
import {
  type BucketKey,
  bucketId,
  creditId,
  type EntryReader,
  type LockedLine,
  type LockedRepricing,
  type PlanContext,
} from "./types.js";

/*
 * A plan change's effect on locked history (API.md §12): each locked plan line of the plan is priced as
 * if no line were locked — its whole (user, plan, period) bucket recomputed in deal order under the new
 * terms, §5 otherwise unchanged. Nothing is written here; retroactive adjustments are the difference.
 */

function assignedOn(ctx: PlanContext, userId: string, planId: string, date: string): boolean {
  return (ctx.assignments.get(userId) ?? []).some(
    (a) => a.plan_id === planId && a.effective_from <= date && (a.effective_to === null || date <= a.effective_to),
  );
}

/**
 * Every locked plan line of `planId` priced under `plan` (the plan's new terms) as if nothing were
 * locked. A line whose credit no longer earns under the plan (dates, currency, assignment) is priced at
 * 0.00, explained by the reason. `users` limits the work to those users (a job batch); `readEntries` reads
 * the buckets' entries (an impact shares one read with its pending side: `sharedEntryReads`).
 */
export async function repriceLockedLines(
  db: Db,
  plan: PlanInput,
  users?: string[],
  readEntries: EntryReader = loadBucketEntries,
): Promise<LockedRepricing[]> {
  const locked = await loadLockedLines(db, plan.id, users);
  if (locked.length === 0) return [];
  // The status is not one of the terms: locked lines were earned while the plan was active, and
  // archiving it (or new terms on an archived plan) must not read as "this plan never paid".
  const asEarned: PlanInput = { ...plan, status: "active" };
  const userIds = [...new Set(locked.map((l) => l.line.user_id))];
  const ctx = await loadPlanContext(db, userIds, new Map([[plan.id, asEarned]]));
  const currencies = currenciesOf(ctx.plans.values());
  await attachRates(
    db,
    locked.map((l) => l.credit.deal),
    currencies,
  );
  const out: LockedRepricing[] = [];
  const buckets: BucketKey[] = [];
  const wanted = new Map<string, LockedLine>();
  for (const { line, credit } of locked) {
    // A line whose assignment to this plan has ended or moved since it was earned is not this edit's
    // to correct: a rate change must not claw back what an assignment change never touched.
    if (!assignedOn(ctx, credit.user_id, plan.id, credit.deal.close_date)) continue;
    // Only the match is needed here (user, close date, currency); the bucket prices the credit.
    const match = matchCredit(credit, ctx);
    if (isMatch(match) && match.plan.id === plan.id) {
      buckets.push(bucketOf(credit, match));
      wanted.set(creditId(credit), line);
    } else {
      const reason = isMatch(match)
        ? `the credit now earns under plan ${match.plan.id} (assignment in force on ${credit.deal.close_date})`
        : match.reason;
      out.push({ line, after: "0.00", explanation: { ...noPlanExplanation(reason) } });
    }
  }
  const keys = uniqueBuckets(buckets);
  const entries = await readEntries(db, keys);
  await attachRates(
    db,
    entries.map((e) => e.deal),
    currencies,
  );
  const placed = byBucket(await mapTurning(entries, (e) => land(e, ctx, true)));
  for (const key of keys) {
    for (const computed of computePlaced(key, placed.get(bucketId(key)) ?? [], ctx)) {
      const line = wanted.get(creditId({ deal: { id: computed.deal_id }, user_id: computed.user_id }));
      if (line) out.push({ line, after: computed.amount, explanation: computed.explanation });
    }
  }
  return out;
}
