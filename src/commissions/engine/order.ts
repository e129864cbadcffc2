import type { EntryKeys } from "./keys.js";
import { compareDealOrder } from "./plans.js";
import type { BucketEntry } from "./types.js";

/** §5 order of entries i and j with the same close_date: created_at, then id, compared as bytes. */
function tieOrder(entries: BucketEntry[], keys: EntryKeys, i: number, j: number): number {
  const a = entries[i]!.deal;
  const b = entries[j]!.deal;
  const dayA = keys.createdDay[i]!;
  const dayB = keys.createdDay[j]!;
  if (dayA >= 0 && dayB >= 0) {
    // Both of the one fixed form, whose byte order is the order of these numbers; equal numbers, equal texts.
    if (dayA !== dayB) return dayA < dayB ? -1 : 1;
    const timeA = keys.createdTime[i]!;
    const timeB = keys.createdTime[j]!;
    if (timeA !== timeB) return timeA < timeB ? -1 : 1;
  } else if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The positions of the entries in deal order. Sorting was the bucket's largest cost (bench/README.md), so
 * the close dates (numbers, EntryKeys) of a bucket, which span one plan period, are placed by counting
 * (stable, no comparisons); only entries sharing a close date are compared (created_at, then id), and a
 * run of them is sorted only when it is not already in order.
 */
export function dealOrder(entries: BucketEntry[], keys: EntryKeys): Int32Array {
  const n = entries.length;
  const dates = keys.date;
  let low = Number.POSITIVE_INFINITY;
  let high = -1;
  for (let i = 0; i < n; i++) {
    const date = dates[i]!;
    if (date < 0) return comparedOrder(entries);
    if (date < low) low = date;
    if (date > high) high = date;
  }
  // A quarter spans ~230 YYYYMMDD numbers and a year ~1,130: counting beats sorting up to a few per entry.
  const span = high - low + 1;
  if (n < 2 || span > 4 * n + 4096) return comparedOrder(entries);
  const next = new Int32Array(span + 1); // where the next entry of each date goes
  for (let i = 0; i < n; i++) next[dates[i]! - low + 1]!++;
  for (let d = 1; d <= span; d++) next[d]! += next[d - 1]!;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[next[dates[i]! - low]!++] = i;
  for (let start = 0; start < n; ) {
    const date = dates[order[start]!]!;
    let end = start + 1;
    let sorted = true;
    while (end < n && dates[order[end]!] === date) {
      if (sorted && tieOrder(entries, keys, order[end - 1]!, order[end]!) > 0) sorted = false;
      end++;
    }
    if (!sorted) order.subarray(start, end).sort((i, j) => tieOrder(entries, keys, i, j) || i - j);
    start = end;
  }
  return order;
}

/** Deal order by comparing the texts: dates that are not YYYY-MM-DD, or spread too far to count. */
function comparedOrder(entries: BucketEntry[]): Int32Array {
  const order = Int32Array.from(entries, (_, i) => i);
  return order.sort((i, j) => compareDealOrder(entries[i]!.deal, entries[j]!.deal) || i - j);
}
