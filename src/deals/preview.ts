import { MAY, visibleUserIds } from "../access/index.js";
import { type Preview, priceUnsavedDeal } from "../commissions/index.js";
import { getPlan } from "../comp-plans/index.js";
import { type Ctx, requireScope } from "../context.js";
import { AppError, validationError } from "../errors.js";
import { minorUnitProblems } from "../http/commission-fields.js";
import { existingUserIds } from "../users/index.js";
import { throwIfInvalid } from "./checks.js";
import { getDeal } from "./read.js";
import { missingUsers, namedUsers, writableOf } from "./records.js";
import type { PreviewBody } from "./schema.js";

/** The deal an edit's preview replaces, as the caller sees it (else, as for a plan, an unknown one: 422). */
async function dealReplaced(ctx: Ctx, dealId: string): Promise<{ id: string; created_at: string }> {
  const deal = await getDeal(ctx, dealId).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "not_found")
      throw validationError("deal_id", `deal ${dealId} does not exist`);
    throw err;
  });
  return { id: deal.id, created_at: deal.created_at };
}

async function planSeen(ctx: Ctx, planId: string): Promise<boolean> {
  return getPlan(ctx, planId).then(
    () => true,
    (err: unknown) => {
      if (err instanceof AppError && err.code === "not_found") return false;
      throw err;
    },
  );
}

/** Validates a deal body exactly as a create would, then prices it without writing anything. */
export async function previewDeal(ctx: Ctx, input: PreviewBody): Promise<Preview> {
  requireScope(ctx, "read", MAY.preview);
  const named = namedUsers(input);
  // A user outside what the caller sees is refused as if unknown (a preview prices their whole period).
  const visible = await visibleUserIds(ctx);
  const known = await existingUserIds(
    ctx.db,
    named.map(([, id]) => id).filter((id) => visible === null || visible.includes(id)),
  );
  // API.md §15: arr_amount in the deal currency's decimals, with the body's other problems.
  throwIfInvalid([
    ...minorUnitProblems(input.currency, { arr_amount: input.arr_amount }),
    ...missingUsers(named, known),
  ]);
  const { plan_id: planId, deal_id: dealId, ...body } = input;
  // Its lines would show the plan's quota, rates and cap: a person tries only a plan they see.
  if (planId !== undefined && visible !== null && !(await planSeen(ctx, planId))) {
    throw validationError("plan_id", `comp plan ${planId} does not exist`);
  }
  const replacing = dealId === undefined ? undefined : await dealReplaced(ctx, dealId);
  const fields = writableOf(body);
  const preview = await priceUnsavedDeal(ctx.db, fields, ctx.now, planId, replacing);
  if (!preview) throw validationError("plan_id", `comp plan ${planId} does not exist`);
  return preview;
}
