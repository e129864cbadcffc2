import type { Db } from "../../db/schema.js";
import { type FxRate as BookRate, loadRateBook, MAX_FX_AGE_DAYS } from "../../exchange-rates/index.js";
import type { DealInput, FxRate, PlanInput, SpiffInput } from "../engine/index.js";

/*
 * API.md §15 in a recalculation: before the engine sees a deal, the deal gets `fx_rates`, the rate (any
 * age up to the largest fx_max_age_days; the engine applies each plan's and SPIFF's own) from its currency
 * into every other currency the batch's plans, SPIFFs and override plans are in. One read of the rate
 * sets per call; none at all when every deal is in the one currency of all the terms (the usual company).
 */

/** The currencies a batch's terms pay in. */
export function currenciesOf(plans: Iterable<PlanInput>, spiffs: Iterable<SpiffInput> = []): Set<string> {
  const out = new Set<string>();
  for (const p of plans) out.add(p.currency);
  for (const s of spiffs) out.add(s.currency);
  return out;
}

/** The currencies each deal was given rates into (so a later call with more currencies adds only those). */
const lookedUp = new WeakMap<DealInput, Set<string>>();

const toEngineRate = (r: BookRate): FxRate => ({
  from: r.from,
  to: r.to,
  num: r.rate.num,
  den: r.rate.den,
  rate_date: r.rate_date,
  base: r.base,
});

/** Sets each deal's `fx_rates` into every currency of `currencies` but its own (in place). */
export async function attachRates(db: Db, deals: Iterable<DealInput>, currencies: Set<string>): Promise<void> {
  const wanting: { deal: DealInput; to: string[] }[] = [];
  for (const deal of deals) {
    const done = lookedUp.get(deal);
    const to = [...currencies].filter((c) => c !== deal.currency && !done?.has(c));
    if (to.length > 0) wanting.push({ deal, to });
  }
  if (wanting.length === 0) return;
  let from = wanting[0]!.deal.close_date;
  let until = from;
  for (const { deal } of wanting) {
    if (deal.close_date < from) from = deal.close_date;
    if (deal.close_date > until) until = deal.close_date;
  }
  const book = await loadRateBook(db, { from, to: until });
  for (const { deal, to } of wanting) {
    const rates = deal.fx_rates ?? [];
    for (const currency of to) {
      const query = { from: deal.currency, to: currency, close_date: deal.close_date, max_age_days: MAX_FX_AGE_DAYS };
      const rate = book.lookup(query);
      if (rate) rates.push(toEngineRate(rate));
    }
    deal.fx_rates = rates;
    const done = lookedUp.get(deal) ?? new Set<string>();
    for (const c of to) done.add(c);
    lookedUp.set(deal, done);
  }
}
