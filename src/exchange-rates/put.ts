import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { daysAfter, MAX_FX_AGE_DAYS } from "./lookup.js";
import { normalizeRate } from "./rate-text.js";
import { ratesChanged } from "./recalc-port.js";
import * as repo from "./repository.js";
import type { ExchangeRateSetWritten, PutRatesBody } from "./schema.js";

export interface PutRatesResult {
  created: boolean;
  set: ExchangeRateSetWritten;
}

/** Replaces the day's set for the base (API.md §15); rates kept as plain exact decimals ("0.920" → "0.92"). */
export async function putExchangeRates(ctx: Ctx, date: string, input: PutRatesBody): Promise<PutRatesResult> {
  requireScope(ctx, "admin");
  const rates = Object.fromEntries(Object.entries(input.rates).map(([code, rate]) => [code, normalizeRate(rate)]));
  return withTransaction(ctx, async (tx) => {
    await repo.lockRateSets(tx);
    const before = await repo.findRateSet(tx, date, input.base);
    await ctx.precondition?.(tx);
    const after = await repo.saveRateSet(tx, { date, base: input.base, rates }, ctx.now, before === undefined);
    await audit(tx, ctx, {
      action: before ? "exchange_rates.replace" : "exchange_rates.create",
      resource: "exchange_rates",
      resourceId: `${date}/${input.base}`,
      before,
      after,
    });
    const { jobId } = await ratesChanged(tx, ctx, {
      date,
      base: input.base,
      close_dates: { from: date, to: daysAfter(date, MAX_FX_AGE_DAYS) },
    });
    return { created: before === undefined, set: { ...after, recalculation_job_id: jobId } };
  });
}
