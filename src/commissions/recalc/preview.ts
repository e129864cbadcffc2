import type { Db } from "../../db/schema.js";
import { newId } from "../../ids.js";
import { amountNumber, parse, plus, ZERO } from "../../money/index.js";
import { creditsOf, type PlanInput } from "../engine/index.js";
import { dealExplanation, type Preview, type PreviewLine } from "../schema.js";
import { bucketOf, computePlaced, isMatch, matchCredit, placeEntries, spiffLinesOf, uniqueBuckets } from "./compute.js";
import { loadBucketEntries } from "./entries-repository.js";
import { attachRates, currenciesOf } from "./rates-repository.js";
import { findPlanInput, loadPlanContext, loadSpiffs } from "./terms-repository.js";
import {
  type BucketKey,
  bucketId,
  type CreditRow,
  type DesiredLine,
  type EngineDeal,
  type EntryRow,
  type PlanContext,
} from "./types.js";

/** A deal body not stored: what `priceUnsavedDeal` prices. */
export interface UnsavedDeal {
  arr_amount: string;
  currency: string;
  deal_type: string;
  close_date: string;
  splits: { user_id: string; percent: string }[];
}

/**
 * "Try this plan": every credited user is treated as assigned to it on every date and it counts as
 * active; the user's other deals in the period are priced under it too (locked ones included), so the
 * preview shows what this deal would earn on that plan given the period so far.
 */
function tryPlan(ctx: PlanContext, plan: PlanInput, userIds: string[]): PlanContext {
  const plans = new Map(ctx.plans);
  plans.set(plan.id, { ...plan, status: "active" });
  const assignments = new Map(
    userIds.map((user_id) => [
      user_id,
      [
        {
          id: "asg_preview",
          plan_id: plan.id,
          user_id,
          effective_from: "0001-01-01",
          effective_to: null,
          quota_override: null,
        },
      ],
    ]),
  );
  return { assignments, plans };
}

function toPreviewLine(line: DesiredLine): PreviewLine {
  const { deal_id: _deal, ...rest } = line;
  // The engine's line types are precise; DesiredLine widens them, and the serializer checks the shape.
  return { ...rest, amount: Number(line.amount), explanation: line.explanation as PreviewLine["explanation"] };
}

/**
 * The lines a deal would earn if created now, computed from the stored data; nothing is written.
 * `replacing`: a stored deal these values would replace (an edit not saved yet): its stored credits
 * leave the periods, and the values take its place in §5 order (its id and created_at).
 */
export async function priceUnsavedDeal(
  db: Db,
  input: UnsavedDeal,
  now: Date,
  planId?: string,
  replacing?: { id: string; created_at: string },
): Promise<Preview | null> {
  const deal: EngineDeal = {
    id: replacing?.id ?? newId("deal", now.getTime()),
    ...input,
    created_at: replacing?.created_at ?? now.toISOString(),
    splits: [],
    status: "pending",
  };
  const userIds = input.splits.map((s) => s.user_id);
  let planCtx = await loadPlanContext(db, userIds);
  if (planId) {
    const plan = await findPlanInput(db, planId);
    if (!plan) return null;
    planCtx = tryPlan(planCtx, plan, userIds);
  }
  const credits: CreditRow[] = creditsOf(input).map((c) => ({ deal, ...c, no_plan_reason: null }));
  const spiffs = await loadSpiffs(db, input.close_date, input.close_date);
  const currencies = currenciesOf(planCtx.plans.values(), spiffs);
  await attachRates(db, [deal], currencies);
  const lines: DesiredLine[] = [];
  const buckets: BucketKey[] = [];
  const noPlan: { user_id: string; reason: string }[] = [];
  for (const credit of credits) {
    const match = matchCredit(credit, planCtx);
    if (isMatch(match)) buckets.push(bucketOf(credit, match));
    else noPlan.push({ user_id: credit.user_id, reason: match.reason });
    lines.push(...spiffLinesOf(credit, match, spiffs));
  }
  const stored = (await loadBucketEntries(db, uniqueBuckets(buckets))).filter((e) => e.deal.id !== deal.id);
  await attachRates(
    db,
    stored.map((e) => e.deal),
    currencies,
  );
  const entries: EntryRow[] = [
    ...stored.map((e) => (planId ? { ...e, deal: { ...e.deal, status: "pending" } } : e)),
    ...credits.map((c) => ({ ...c, locked_plan_id: null, locked_period: null, locked_amount: null })),
  ];
  const position = (l: DesiredLine) => userIds.indexOf(l.user_id);
  const placed = placeEntries(entries, planCtx);
  const planLines = uniqueBuckets(buckets)
    .flatMap((b) => computePlaced(b, placed.get(bucketId(b)) ?? [], planCtx).filter((l) => l.deal_id === deal.id))
    .sort((a, b) => position(a) - position(b));
  const all = [...planLines, ...lines];
  const total = all.reduce((sum, l) => plus(sum, parse(l.amount)), ZERO);
  return {
    lines: all.map(toPreviewLine),
    total_commission: amountNumber(total),
    explanation: dealExplanation(noPlan),
  };
}
