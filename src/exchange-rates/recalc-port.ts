import type { Ctx, Tx } from "../context.js";

/**
 * A rate PUT or DELETE reaches the commission lines through this port (API.md §15: pending deals closing
 * from `date` to `date` + 31 may convert differently): exchange-rates/ sits below commissions/, which
 * fills it when it loads. Without a handler a rate change recalculates nothing and answers a null job.
 */
export interface RatesChange {
  /** The set that was written or deleted. */
  date: string;
  base: string;
  /** Inclusive close dates whose conversions may change: `date` … `date` + 31 (the largest fx_max_age_days). */
  close_dates: { from: string; to: string };
}

export type RatesChangeHandler = (tx: Tx, ctx: Ctx, change: RatesChange) => Promise<{ jobId: string | null }>;

let handler: RatesChangeHandler | undefined;

/** Sets the handler and returns the one it replaces (tests put it back). */
export function setRatesChangeHandler(next: RatesChangeHandler | undefined): RatesChangeHandler | undefined {
  const previous = handler;
  handler = next;
  return previous;
}

/** Recalculates what a rate change reaches, in the caller's transaction; the job's id when it went to the background. */
export async function ratesChanged(tx: Tx, ctx: Ctx, change: RatesChange): Promise<{ jobId: string | null }> {
  return handler ? handler(tx, ctx, change) : { jobId: null };
}
