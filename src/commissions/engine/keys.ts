import { parseInto, scratch } from "../../money/index.js";
import { dateNumber } from "./periods.js";
import type { BucketEntry, DealInput } from "./types.js";

/**
 * Per entry of a bucket, in input order, what the engine reads of its deal and credit, as numbers: the
 * close date (YYYYMMDD), created_at as two numbers (YYYYMMDD, HHMMSSmmm; day −1 when created_at is not
 * "YYYY-MM-DDTHH:MM:SS.mmmZ": compare the text), the credit and arr_amount as scaled integers (scale −1:
 * not a short plain decimal, so calculateBucket prices the bucket with fixed.ts).
 */
export interface EntryKeys {
  date: Int32Array;
  createdDay: Int32Array;
  createdTime: Int32Array;
  credit: Float64Array;
  creditScale: Int8Array;
  arr: Float64Array;
  arrScale: Int8Array;
}

// Where `scan` leaves one entry's numbers (module scratch: the hot path allocates nothing).
const scanned = { date: 0, createdDay: 0, createdTime: 0, credit: 0, creditScale: 0, arr: 0, arrScale: 0 };

const digitsAt = (text: string, from: number, to: number, n: number): number => {
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
};

/** created_at "2026-01-31T09:05:00.250Z" as scanned.createdDay 20260131 and createdTime 090500250, else day −1. */
function scanCreated(text: string): void {
  scanned.createdDay = -1;
  if (text.length !== 24 || text.charCodeAt(10) !== 84 || text.charCodeAt(23) !== 90) return;
  const year = digitsAt(text, 0, 4, 0);
  const month = text.charCodeAt(4) === 45 && year >= 0 ? digitsAt(text, 5, 7, year) : -1;
  const day = text.charCodeAt(7) === 45 && month >= 0 ? digitsAt(text, 8, 10, month) : -1;
  const hh = digitsAt(text, 11, 13, 0);
  const mm = text.charCodeAt(13) === 58 ? digitsAt(text, 14, 16, hh) : -1;
  const ss = text.charCodeAt(16) === 58 && mm >= 0 ? digitsAt(text, 17, 19, mm) : -1;
  const time = text.charCodeAt(19) === 46 && ss >= 0 ? digitsAt(text, 20, 23, ss) : -1;
  if (day < 0 || hh < 0 || time < 0) return;
  scanned.createdDay = day;
  scanned.createdTime = time;
}

function scan(deal: DealInput, credit: string): void {
  scanned.date = dateNumber(deal.close_date);
  scanCreated(deal.created_at);
  const creditOk = parseInto(credit);
  scanned.credit = creditOk ? scratch.c : 0;
  scanned.creditScale = creditOk ? scratch.s : -1;
  const arrOk = parseInto(deal.arr_amount);
  scanned.arr = arrOk ? scratch.c : 0;
  scanned.arrScale = arrOk ? scratch.s : -1;
}

/**
 * The numbers of every entry. A large computation's entries and their deals' texts lie all over the heap,
 * and reading them was most of a bucket's time (bench/README.md): a first pass only touches each text,
 * so the cache misses of many entries overlap instead of waiting one after another in the parsing.
 */
export function keysOf(entries: BucketEntry[]): EntryKeys {
  const n = entries.length;
  let touched = 0;
  for (let i = 0; i < n; i++) {
    const entry = entries[i]!;
    const deal = entry.deal;
    touched += entry.credit.length + deal.close_date.length + deal.created_at.length + deal.arr_amount.length;
  }
  const keys: EntryKeys = {
    date: new Int32Array(n),
    createdDay: new Int32Array(n),
    createdTime: new Int32Array(n),
    credit: new Float64Array(n),
    creditScale: new Int8Array(n),
    arr: new Float64Array(n),
    arrScale: new Int8Array(n),
  };
  // `touched` is read below so that the compiler keeps the first pass.
  for (let i = 0; i < n && touched >= 0; i++) {
    const entry = entries[i]!;
    scan(entry.deal, entry.credit);
    keys.date[i] = scanned.date;
    keys.createdDay[i] = scanned.createdDay;
    keys.createdTime[i] = scanned.createdTime;
    keys.credit[i] = scanned.credit;
    keys.creditScale[i] = scanned.creditScale;
    keys.arr[i] = scanned.arr;
    keys.arrScale[i] = scanned.arrScale;
  }
  return keys;
}
