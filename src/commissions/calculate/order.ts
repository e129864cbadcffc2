import { dateNumber } from "./periods.js";
import { compareDealOrder } from "./plans.js";
import type { BucketEntry, DealInput } from "./types.js";

const byDealOrder = (a: BucketEntry, b: BucketEntry): number => compareDealOrder(a.deal, b.deal);

/** §5 order of two deals with the same close_date: created_at, then id, compared as bytes. */
function tieOrder(a: DealInput, b: DealInput): number {
  return a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The entries in deal order (a new array). Sorting was the bucket's largest cost (bench/README.md), so the
 * close dates are read once as numbers (YYYYMMDD) and, as a bucket's dates span one plan period, placed
 * by counting (stable, no comparisons); only entries sharing a close date are compared (created_at, then
 * id), and a run of them is sorted only when it is not already in order.
 */
export function inDealOrder(entries: BucketEntry[]): BucketEntry[] {
  const n = entries.length;
  if (n < 2) return entries.slice();
  const dates = new Int32Array(n);
  let low = Number.POSITIVE_INFINITY;
  let high = -1;
  for (let i = 0; i < n; i++) {
    const date = dateNumber(entries[i]!.deal.close_date);
    if (date < 0) return entries.slice().sort(byDealOrder);
    dates[i] = date;
    if (date < low) low = date;
    if (date > high) high = date;
  }
  // A quarter spans ~230 YYYYMMDD numbers and a year ~1,130: counting beats sorting up to a few per entry.
  const span = high - low + 1;
  if (span > 4 * n + 4096) return keyOrder(entries, dates);
  const next = new Int32Array(span + 1); // where the next entry of each date goes
  for (let i = 0; i < n; i++) next[dates[i]! - low + 1]!++;
  for (let d = 1; d <= span; d++) next[d]! += next[d - 1]!;
  const ordered: BucketEntry[] = new Array(n);
  const orderedDates = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const at = next[dates[i]! - low]!++;
    ordered[at] = entries[i]!;
    orderedDates[at] = dates[i]!;
  }
  for (let start = 0; start < n; ) {
    let end = start + 1;
    let sorted = true;
    while (end < n && orderedDates[end] === orderedDates[start]) {
      if (sorted && tieOrder(ordered[end - 1]!.deal, ordered[end]!.deal) > 0) sorted = false;
      end++;
    }
    if (!sorted) sortRun(ordered, start, end);
    start = end;
  }
  return ordered;
}

/** Sorts ordered[from, to) (one close date) in deal order, in place. */
function sortRun(ordered: BucketEntry[], from: number, to: number): void {
  const run = ordered.slice(from, to).sort(byDealOrder);
  for (let i = 0; i < run.length; i++) ordered[from + i] = run[i]!;
}

const INDEX_BITS = 2 ** 20;

/**
 * Deal order for dates too spread out to count: each entry's date and position in one number
 * (date × 2^20 + index, exact below 2^53), sorted natively; runs of one date by created_at, then id.
 */
function keyOrder(entries: BucketEntry[], dates: Int32Array): BucketEntry[] {
  const n = entries.length;
  if (n >= INDEX_BITS) return entries.slice().sort(byDealOrder);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = dates[i]! * INDEX_BITS + i;
  keys.sort();
  const ordered: BucketEntry[] = new Array(n);
  let runStart = 0;
  for (let i = 0; i < n; i++) {
    ordered[i] = entries[keys[i]! % INDEX_BITS]!;
    const runEnds = i + 1 === n || Math.floor(keys[i + 1]! / INDEX_BITS) !== Math.floor(keys[i]! / INDEX_BITS);
    if (runEnds) {
      if (i > runStart) sortRun(ordered, runStart, i + 1);
      runStart = i + 1;
    }
  }
  return ordered;
}
