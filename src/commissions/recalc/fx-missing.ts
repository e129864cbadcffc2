import type { FxMissing } from "../engine/index.js";

// API.md §15 `fx_missing`: the currency pairs a deal's lines found no usable rate for. Kept per credit (its
// plan and SPIFF lines) and per deal (its override lines); the deal's is their union.

/** A deal whose override lines miss other pairs than stored. */
export interface FxMissingChange {
  deal_id: string;
  /** null: none. */
  fx_missing: FxMissing[] | null;
}

const pairKey = (p: FxMissing): string => `${p.from}>${p.to}@${p.close_date}`;

/** Distinct pairs by from, then to, as stored (null: none). */
export function sortPairs(pairs: readonly FxMissing[]): FxMissing[] | null {
  if (pairs.length === 0) return null;
  const byKey = new Map(pairs.map((p) => [pairKey(p), { from: p.from, to: p.to, close_date: p.close_date }]));
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, p]) => p);
}

/** Whether `now` names other pairs than `stored` (in any order). */
export function pairsChanged(stored: readonly FxMissing[] | null | undefined, now: readonly FxMissing[]): boolean {
  const a = (stored ?? []).map(pairKey).sort().join(",");
  const b = now.map(pairKey).sort().join(",");
  return a !== b;
}
