import { MAY } from "../access/index.js";
import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { AppError, conflict, type ErrorDetail } from "../errors.js";
import { emit } from "../events/emit.js";
import { minorUnitProblems } from "../http/commission-fields.js";
import { newId } from "../ids.js";
import { isPeriodEnd, isPeriodStart } from "./periods.js";
import { drawOf } from "./read.js";
import * as repo from "./repository.js";
import type { CreateDrawBody, Draw } from "./schema.js";

const addYears = (date: string, years: number) => `${Number(date.slice(0, 4)) + years}${date.slice(4)}`;

/** What is wrong with a draw's terms (API.md §18), one detail per field. */
function problems(input: CreateDrawBody): ErrorDetail[] {
  const details = minorUnitProblems(input.currency, { amount: input.amount });
  const which = input.period === "month" ? "month" : "calendar quarter";
  if (!isPeriodStart(input.starts_on, input.period))
    details.push({ param: "starts_on", message: `must be the first day of a ${which}` });
  if (!isPeriodEnd(input.ends_on, input.period))
    details.push({ param: "ends_on", message: `must be the last day of a ${which}` });
  else if (input.ends_on < input.starts_on) details.push({ param: "ends_on", message: "must not be before starts_on" });
  else if (input.ends_on > addYears(input.starts_on, 10))
    details.push({ param: "ends_on", message: "must be at most 10 years after starts_on" });
  if (input.recovery_starts_on !== undefined) {
    if (input.kind !== "recoverable")
      details.push({ param: "recovery_starts_on", message: "applies to recoverable draws only" });
    else if (input.recovery_starts_on < input.starts_on)
      details.push({ param: "recovery_starts_on", message: "must not be before starts_on" });
  }
  return details;
}

/** POST /draws: people finance or admin, keys admin; overlapping another draw of the person and currency → 409. */
export async function createDraw(ctx: Ctx, input: CreateDrawBody): Promise<Draw> {
  requireScope(ctx, "admin", MAY.draws);
  const details = problems(input);
  if (details.length > 0)
    throw new AppError("validation_error", details.map((d) => `${d.param} ${d.message}`).join("; "), details);
  return withTransaction(ctx, async (tx) => {
    if (!(await repo.userExists(tx, input.user_id)))
      throw new AppError("validation_error", `user_id names no user: ${input.user_id}`, [
        { param: "user_id", message: `names no user: ${input.user_id}` },
      ]);
    await repo.lockUserDraws(tx, input.user_id);
    const other = await repo.overlapping(tx, input);
    if (other)
      throw conflict(
        `Draw ${other.id} of ${input.user_id} in ${input.currency} runs ${other.starts_on} to ${other.ends_on}, overlapping this one`,
      );
    const row = await repo.insertDraw(tx, {
      id: newId("draw", ctx.now.getTime()),
      user_id: input.user_id,
      kind: input.kind,
      amount: input.amount,
      currency: input.currency,
      period: input.period,
      starts_on: input.starts_on,
      ends_on: input.ends_on,
      recovery_starts_on: input.kind === "recoverable" ? (input.recovery_starts_on ?? input.starts_on) : null,
      created_at: ctx.now,
      updated_at: ctx.now,
    });
    const draw = await drawOf(tx, row, ctx.now);
    await audit(tx, ctx, { action: "draw.create", resource: "draw", resourceId: draw.id, after: draw });
    await emit(tx, ctx, "draw.created", { object: draw });
    return draw;
  });
}
