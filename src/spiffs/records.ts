import { type DateRange, lockForRecalc, recalculate } from "../commissions/index.js";
import type { Ctx, Tx } from "../context.js";
import { AppError, validationError } from "../errors.js";
import { minorUnitProblems } from "../http/commission-fields.js";
import type * as repo from "./repository.js";
import type { CreateSpiffBody } from "./schema.js";

// What the SPIFF writes share: the stored criteria, the checks, the windows they recalculate.

export function criteriaOf(input: CreateSpiffBody["criteria"]): repo.SpiffRecord["criteria"] {
  return {
    min_arr_amount: input.min_arr_amount ?? null,
    deal_types: input.deal_types ?? null,
    user_ids: input.user_ids ?? null,
  };
}

/** Dates ordered and every listed user real (422 naming the index). Takes the exclusive SPIFF lock first. */
export async function checkSpiff(tx: Tx, r: repo.SpiffRecord): Promise<void> {
  const userIds = r.criteria.user_ids ?? [];
  const known = await lockForRecalc(tx, { spiffs: "exclusive", users: userIds });
  if (r.ends_on < r.starts_on) throw validationError("ends_on", `must be on or after starts_on (${r.starts_on})`);
  // API.md §15: the SPIFF's amounts in the SPIFF's currency (an update checks the merged SPIFF).
  const flat = r.payout.type === "flat" ? r.payout.amount : null;
  const details = [
    ...minorUnitProblems(r.currency, { "criteria.min_arr_amount": r.criteria.min_arr_amount, "payout.amount": flat }),
    ...userIds.flatMap((id, i) =>
      known.has(id) ? [] : [{ param: `criteria.user_ids[${i}]`, message: `user ${id} does not exist` }],
    ),
  ];
  if (details.length > 0) {
    throw new AppError("validation_error", details.map((d) => `${d.param} ${d.message}`).join("; "), details);
  }
}

const windowOf = (s: repo.SpiffRecord): DateRange => ({ from: s.starts_on, to: s.ends_on });

/** SPIFF changes move SPIFF lines only: the pending deals closing in the windows are redone. */
export async function recalcWindows(tx: Tx, ctx: Ctx, spiffs: repo.SpiffRecord[]): Promise<string | null> {
  const ranges = spiffs.filter((s) => s.active).map(windowOf);
  if (ranges.length === 0) return null;
  return (await recalculate(tx, ctx, [{ type: "spiff", ranges }])).jobId;
}
