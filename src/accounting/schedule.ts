import { type Fixed, fx, gt, minus, neg, plus, quotient, sign, times, ZERO } from "../money/index.js";

/*
 * API.md §17, the arithmetic alone: how many months a commission asset is amortized over, and its
 * schedule month by month, exactly (scaled integers), whatever later writes the assets and reads the
 * reports. A month is "YYYY-MM".
 */

export interface AccountingTerms {
  expected_customer_life_months: number;
  renewal_commission_commensurate: boolean;
  practical_expedient: boolean;
}

/** Whole months from `start` to `end` (ISO dates, start < end), a part month counting as one. */
export function termMonths(start: string, end: string): number {
  const [y1, m1, d1] = start.split("-").map(Number) as [number, number, number];
  const [y2, m2, d2] = end.split("-").map(Number) as [number, number, number];
  return (y2 - y1) * 12 + (m2 - m1) + (d2 > d1 ? 1 : 0);
}

/**
 * N: the contract's term when renewals earn a commensurate commission, else the longer of the term and
 * the expected customer life (the life alone without contract dates); N ≤ 12 with the practical expedient
 * is expensed when approved.
 */
export function amortizationPeriod(
  contract: { start: string; end: string } | null,
  terms: AccountingTerms,
): { months: number; treatment: "capitalized" | "expensed" } {
  const life = terms.expected_customer_life_months;
  const term = contract === null ? null : termMonths(contract.start, contract.end);
  const months = term === null ? life : terms.renewal_commission_commensurate ? term : Math.max(term, life);
  return { months, treatment: terms.practical_expedient && months <= 12 ? "expensed" : "capitalized" };
}

export const monthOf = (isoDate: string): string => isoDate.slice(0, 7);

export function addMonths(month: string, n: number): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const index = y * 12 + (m - 1) + n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
}

/** Months from `a` to `b` (b − a; 0 when equal). */
export function monthsBetween(a: string, b: string): number {
  const [ya, ma] = a.split("-").map(Number) as [number, number];
  const [yb, mb] = b.split("-").map(Number) as [number, number];
  return (yb - ya) * 12 + (mb - ma);
}

const abs = (a: Fixed): Fixed => (sign(a) < 0 ? fx(neg(a.c), a.s) : a);

/**
 * `balance` spread straight-line over `count` months at `places` decimals: each month but the last the
 * rounded share (truncated when the rounded share's count − 1 months would pass the balance), the last
 * month what is left, so the months sum to the balance exactly.
 */
export function straightLine(balance: Fixed, count: number, places: number): Fixed[] {
  if (count < 1) throw new RangeError("a spread needs at least one month");
  let share = quotient(balance, fx(count), places);
  if (gt(abs(times(share, fx(count - 1))), abs(balance))) {
    // Rounded away from zero: the truncated share is one minor unit nearer zero.
    share = minus(share, fx(sign(balance), places));
  }
  const months = Array.from({ length: count - 1 }, () => share);
  months.push(minus(balance, times(share, fx(count - 1))));
  return months;
}

/** What happens to an asset after its approval, in the month it is booked. */
export type AssetEvent =
  /** An adjustment line of the asset's user on the deal: the balance ± amount, re-spread from this month. */
  | { type: "adjustment"; month: string; amount: Fixed }
  /** A clawback of the asset's line: reduces the balance (to 0 at most; the excess reduces expense). */
  | { type: "clawback"; month: string; amount: Fixed }
  /** A cancellation: what is left after the month's amortization and clawbacks is impaired. */
  | { type: "impairment"; month: string };

export interface ScheduleMonth {
  month: string;
  addition: Fixed;
  adjustment: Fixed;
  amortization: Fixed;
  clawback: Fixed;
  impairment: Fixed;
  closing: Fixed;
  /** An adjustment booked straight to commission expense, never on the asset (past its last month). */
  expensed: Fixed;
  /** What a clawback took beyond the balance: it reduces commission expense instead. */
  clawback_excess: Fixed;
}

export interface CapitalizedAsset {
  amount: Fixed;
  /** The currency's minor unit. */
  places: number;
  months: number;
  /** The first month of the straight line: contract_start's month, else the approval month. */
  start_month: string;
  approval_month: string;
}

/**
 * The asset's schedule from its approval month to the month its balance reaches 0, each month in the
 * order of §17: addition, adjustments, amortization (months before approval caught up in it),
 * clawbacks, impairment. Σ amortization + Σ clawback + Σ impairment = amount + Σ adjustment.
 */
export function assetSchedule(asset: CapitalizedAsset, events: readonly AssetEvent[]): ScheduleMonth[] {
  const { places, approval_month } = asset;
  const lastMonth = addMonths(asset.start_month, asset.months - 1);
  // The amortization still to come, by month; months before approval are booked in the approval month.
  let plan = new Map<string, Fixed>();
  const planFrom = (balance: Fixed, from: string) => {
    const count = monthsBetween(from, lastMonth) + 1;
    plan = new Map(straightLine(balance, count, places).map((amount, i) => [addMonths(from, i), amount]));
  };
  planFrom(asset.amount, asset.start_month);
  const after = events.filter((e) => e.month >= approval_month);
  const last = [lastMonth, approval_month, ...after.map((e) => e.month)].sort().at(-1)!;
  const rows: ScheduleMonth[] = [];
  let balance = ZERO;
  for (let month = approval_month; month <= last; month = addMonths(month, 1)) {
    const row: ScheduleMonth = {
      month,
      addition: month === approval_month ? asset.amount : ZERO,
      adjustment: ZERO,
      amortization: ZERO,
      clawback: ZERO,
      impairment: ZERO,
      closing: ZERO,
      expensed: ZERO,
      clawback_excess: ZERO,
    };
    balance = plus(balance, row.addition);
    const happening = after.filter((e) => e.month === month);
    for (const e of happening) {
      if (e.type !== "adjustment") continue;
      if (month > lastMonth) {
        row.expensed = plus(row.expensed, e.amount);
        continue;
      }
      row.adjustment = plus(row.adjustment, e.amount);
      balance = plus(balance, e.amount);
      // A late approval's catch-up stays booked this month; the rest is spread again from this month.
      const before = caughtUp(plan, addMonths(month, -1));
      planFrom(minus(balance, before), month);
      plan.set(month, plus(plan.get(month)!, before));
    }
    row.amortization = caughtUp(plan, month);
    for (const m of [...plan.keys()]) if (m <= month) plan.delete(m);
    balance = minus(balance, row.amortization);
    let clawed = false;
    for (const e of happening) {
      if (e.type !== "clawback") continue;
      const taken = sign(balance) > 0 ? (gt(e.amount, balance) ? balance : e.amount) : ZERO;
      row.clawback = plus(row.clawback, taken);
      row.clawback_excess = plus(row.clawback_excess, minus(e.amount, taken));
      balance = minus(balance, taken);
      clawed = true;
    }
    const impaired = happening.some((e) => e.type === "impairment");
    if (impaired) {
      row.impairment = balance;
      balance = ZERO;
      plan = new Map();
    } else if (clawed && month < lastMonth) planFrom(balance, addMonths(month, 1));
    else if (clawed) plan = new Map();
    row.closing = balance;
    rows.push(row);
    if (sign(balance) === 0 && (impaired || month >= lastMonth) && !after.some((e) => e.month > month)) break;
  }
  return rows;
}

/** Σ of the planned amortization of `month` and every month before it (a late approval's catch-up). */
function caughtUp(plan: Map<string, Fixed>, month: string): Fixed {
  let sum = ZERO;
  for (const [m, amount] of plan) if (m <= month) sum = plus(sum, amount);
  return sum;
}

/** A month as the tables store it: year × 12 + month − 1. */
export function monthIndex(month: string): number {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return y * 12 + (m - 1);
}

export function monthLabel(index: number): string {
  return `${String(Math.floor(index / 12)).padStart(4, "0")}-${String((index % 12) + 1).padStart(2, "0")}`;
}

/** The month's last day, YYYY-MM-DD. */
export function lastDayOf(month: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const day = new Date(0);
  day.setUTCFullYear(y, m, 0);
  return day.toISOString().slice(0, 10);
}
