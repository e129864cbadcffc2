import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { AppError } from "../errors.js";
import { daysAfter, MAX_FX_AGE_DAYS } from "./lookup.js";
import { ratesChanged } from "./recalc-port.js";
import * as repo from "./repository.js";

/** Deletes the day's set for the base; returns the recalculation job id, if the change went to the background. */
export async function deleteExchangeRates(ctx: Ctx, date: string, base: string): Promise<string | null> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    await repo.lockRateSets(tx);
    const before = await repo.findRateSet(tx, date, base);
    if (!before) throw new AppError("not_found", `No ${base} exchange rates on ${date}`);
    await repo.deleteRateSet(tx, date, base);
    await audit(tx, ctx, {
      action: "exchange_rates.delete",
      resource: "exchange_rates",
      resourceId: `${date}/${base}`,
      before,
    });
    const change = { date, base, close_dates: { from: date, to: daysAfter(date, MAX_FX_AGE_DAYS) } };
    return (await ratesChanged(tx, ctx, change)).jobId;
  });
}
