import type { Db } from "../../db/schema.js";
import { turnIfDue } from "../../event-loop.js";
import {
  type AssignmentInput,
  calculateOverrideLines,
  type DealInput,
  type FxMissing,
  type OverrideContext,
  type PlanInput,
  type ReportingLineInput,
} from "../engine/index.js";
import { type FxMissingChange, pairsChanged, sortPairs } from "./fx-missing.js";
import { toEngineDeal, toPlanInput } from "./inputs.js";
import {
  anyOverrideAssignment,
  loadOverrideAssignments,
  loadOverrideDeals,
  loadPlans,
  loadReportingChains,
  loadUnlockedOverrideLines,
  lockDeals,
  type OverrideDeal,
  overrideDealIds,
} from "./overrides-repository.js";
import { attachRates, currenciesOf } from "./rates-repository.js";
import type { CreditRow, DesiredLine, ExistingLine, RecalcTarget } from "./types.js";

/*
 * The override pass of a recalculation (API.md §16). An override line depends on its deal alone (its
 * amount, close_date and splits), on who reported to whom that day and on the managers' override plans:
 * no attainment, no cap, so the unit is the deal — every override line of a deal it reaches is
 * recomputed, and the pending ones it no longer wants go.
 */

export interface OverrideOptions {
  /** Pending deals not stored yet, planned as if they were (their credits). */
  unsaved?: CreditRow[];
  /** Plans to use instead of their stored current version (a plan edit's impact). */
  plans?: Map<string, PlanInput>;
  /** Reporting histories to use instead of the stored ones (a reporting change's impact). */
  reporting?: Map<string, ReportingLineInput[]>;
  /** Exactly these deals (a job's batch), instead of those the targets reach. */
  dealIds?: string[];
  /** Lock the deals before reading them (a recalculation that will write). */
  lock?: boolean;
}

export interface OverridePlan {
  desired: DesiredLine[];
  existing: ExistingLine[];
  /** Deals whose override lines were recomputed: their pending override lines not desired go. */
  deals: Set<string>;
  /** Deals whose override lines now miss other rates than stored (API.md §15 `fx_missing`). */
  fxMissing: FxMissingChange[];
}

const NOTHING = (): OverridePlan => ({ desired: [], existing: [], deals: new Set(), fxMissing: [] });

function unsavedDeals(credits: CreditRow[]): StoredDeal[] {
  const deals = new Map<string, StoredDeal>();
  for (const c of credits) {
    const deal = deals.get(c.deal.id) ?? { ...c.deal, splits: [], stored_fx_missing: null };
    deal.splits.push({ user_id: c.user_id, percent: c.percent });
    deals.set(c.deal.id, deal);
  }
  return [...deals.values()];
}

type StoredDeal = DealInput & { stored_fx_missing: FxMissing[] | null };

const toDealInput = (row: OverrideDeal): StoredDeal => ({
  ...toEngineDeal(row),
  splits: row.splits,
  stored_fx_missing: row.override_fx_missing,
});

async function contextFor(db: Db, deals: DealInput[], options: OverrideOptions): Promise<OverrideContext> {
  const credited = [...new Set(deals.flatMap((d) => d.splits.map((s) => s.user_id)))];
  const reporting = await loadReportingChains(db, credited);
  for (const [user, lines] of options.reporting ?? []) reporting.set(user, lines);
  if (options.reporting) {
    // A proposed history can name managers whose own chain was never read.
    const missing = [...options.reporting.values()]
      .flat()
      .flatMap((l) => (l.manager_id && !reporting.has(l.manager_id) ? [l.manager_id] : []));
    for (const [user, lines] of await loadReportingChains(db, missing))
      if (!options.reporting.has(user)) reporting.set(user, lines);
  }
  const managers = [...new Set([...reporting.values()].flat().flatMap((l) => (l.manager_id ? [l.manager_id] : [])))];
  const assignmentRows = await loadOverrideAssignments(db, managers);
  const assignments = new Map<string, AssignmentInput[]>();
  for (const a of assignmentRows) {
    const list = assignments.get(a.user_id) ?? [];
    list.push(a);
    assignments.set(a.user_id, list);
  }
  const plans = new Map<string, PlanInput>();
  for (const p of await loadPlans(db, [...new Set(assignmentRows.map((a) => a.plan_id))]))
    plans.set(p.id, options.plans?.get(p.id) ?? toPlanInput(p));
  return { reporting, assignments, plans };
}

/** The override lines the targets' deals want, and those they have. */
export async function planOverrides(
  db: Db,
  targets: RecalcTarget[],
  options: OverrideOptions = {},
): Promise<OverridePlan> {
  // Deal writes are most recalculations: with no override plan held by anyone there is nothing to pay (a
  // removed assignment's own recalculation, a `user` target, clears the lines it leaves).
  const dealsOnly = options.dealIds === undefined && targets.every((t) => t.type === "deals");
  if (dealsOnly && !(await anyOverrideAssignment(db))) return NOTHING();
  const unsaved = unsavedDeals(options.unsaved ?? []);
  const ids = options.dealIds ?? (await overrideDealIds(db, targets));
  const unsavedIds = new Set(unsaved.map((d) => d.id));
  const stored = ids.filter((id) => !unsavedIds.has(id));
  if (options.lock) await lockDeals(db, stored);
  const deals = (await loadOverrideDeals(db, stored)).map(toDealInput).concat(unsaved);
  const desired: DesiredLine[] = [];
  const fxMissing: FxMissingChange[] = [];
  if (deals.length > 0) {
    const ctx = await contextFor(db, deals, options);
    await attachRates(db, deals, currenciesOf(ctx.plans.values()));
    for (const deal of deals) {
      const missing: FxMissing[] = [];
      for (const line of calculateOverrideLines(deal, ctx, missing))
        desired.push({ ...line, spiff_id: null, explanation: { ...line.explanation } });
      if (pairsChanged(deal.stored_fx_missing, missing))
        fxMissing.push({ deal_id: deal.id, fx_missing: sortPairs(missing) });
      await turnIfDue();
    }
  }
  const existing = await loadUnlockedOverrideLines(db, stored);
  return { desired, existing, deals: new Set([...stored, ...unsavedIds]), fxMissing };
}
