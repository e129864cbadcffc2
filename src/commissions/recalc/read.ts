import * as credits from "./credits-repository.js";
import * as entries from "./entries-repository.js";
import * as lines from "./lines-repository.js";
import * as locked from "./locked-repository.js";
import * as terms from "./terms-repository.js";

// What the rest of commissions (lines/, impact/) and other features read through recalc's repositories,
// so that no index.ts re-exports a repository.

/** The buckets these deals' lines are in: what a change must recalculate besides their new buckets. */
export const bucketsOfDeals: typeof lines.bucketsOfDeals = (db, dealIds) => lines.bucketsOfDeals(db, dealIds);

/** The assignments and plans a recalculation applies to these users. */
export const loadPlanContext: typeof terms.loadPlanContext = (db, userIds, instead) =>
  terms.loadPlanContext(db, userIds, instead);

/** The credits a recalculation of `targets` computes (what chooses between inline and a job). */
export const countCredits: typeof credits.countCredits = (db, targets) => credits.countCredits(db, targets);

/** A plan's lines of every status (from an index alone) and whether it is active: what sizes an impact of its edit. */
export const countPlanLines: typeof locked.countPlanLines = (db, planId) => locked.countPlanLines(db, planId);

/** The computation behind what each line pays now, by id (the latest retroactive correction's, if any). */
export const currentExplanations: typeof locked.currentExplanations = (db, ids) => locked.currentExplanations(db, ids);

/** One read of bucket entries shared by the computations of one answer (a plan's impact: pending and locked). */
export const sharedEntryReads: typeof entries.sharedEntryReads = () => entries.sharedEntryReads();
