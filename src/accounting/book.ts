import type { Insertable } from "kysely";
import type { Tx } from "../context.js";
import type { AccountingEventsTable, Db } from "../db/schema.js";
import { type Fixed, gt, minorUnits, minus, parse, plain, sign, ZERO } from "../money/index.js";
import * as repo from "./repository.js";
import {
  type AssetEvent,
  amortizationPeriod,
  assetSchedule,
  type CapitalizedAsset,
  monthIndex,
  monthLabel,
  monthOf,
  type ScheduleMonth,
} from "./schedule.js";
import { settingsValues } from "./settings.js";

const negate = (a: Fixed): Fixed => minus(ZERO, a);

/*
 * Booking (API.md §17): a deal's assets are made when it is approved; whatever moves them afterwards (an
 * adjustment, a clawback, the cancellation) books them again from the deal as it now is — the events
 * derived from its lines and status, the schedules recomputed by schedule.ts, the postings rewritten — so
 * every path that writes such a line books by calling one function, and booking twice changes nothing.
 */

const dayOf = (t: Date): string => t.toISOString().slice(0, 10);
const KIND_ORDER: Record<string, number> = { plan: 0, spiff: 1, override: 2 };

/**
 * The approved deal's capitalizable lines become assets (once: a line that has one keeps it), with their
 * first postings. Nothing has moved them yet, so nothing else is read.
 */
export async function bookApproval(tx: Tx, deal: repo.BookedDeal, now: Date): Promise<void> {
  const rows = await makeAssets(tx, deal, now);
  const postings = rows.flatMap((row) => postingsOf({ row, asset: capitalized(row), events: [] }).postings);
  await repo.insertPostings(tx, postings);
}

async function makeAssets(tx: Tx, deal: repo.BookedDeal, now: Date): Promise<repo.AssetRow[]> {
  const settings = settingsValues((await repo.readSettings(tx)).settings);
  const lines = await repo.dealLines(tx, deal.id, settings.capitalize_kinds);
  const contract =
    deal.contract_start && deal.contract_end ? { start: deal.contract_start, end: deal.contract_end } : null;
  const { months, treatment } = amortizationPeriod(contract, settings);
  const approvedOn = dayOf(deal.approved_at!);
  const approvalMonth = monthIndex(monthOf(approvedOn));
  const startMonth = contract ? monthIndex(monthOf(contract.start)) : approvalMonth;
  const rows: repo.AssetRow[] = lines
    .filter((l) => sign(parse(l.amount)) !== 0)
    .map((l) => ({
      line_id: l.id,
      deal_id: deal.id,
      user_id: l.user_id,
      plan_id: l.plan_id,
      kind: l.kind as repo.AssetRow["kind"],
      currency: l.currency,
      amount: l.amount,
      treatment,
      months,
      start_month: startMonth,
      approval_month: approvalMonth,
      approved_on: approvedOn,
      // A straight line's last month: the start's + N − 1, or the approval's when that is later (a catch-up).
      last_month: treatment === "expensed" ? approvalMonth : Math.max(startMonth + months - 1, approvalMonth),
      created_at: now,
    }));
  await repo.insertAssets(tx, rows);
  return rows;
}

/** Deals approved before this feature: their assets, built once at the first start after migration 021. */
export async function buildEarlierAssets(tx: Tx, now: Date): Promise<number> {
  const settings = await repo.lockSettings(tx);
  if (settings.assets_built_at) return 0;
  const ids = await repo.dealsApprovedWithoutAssets(tx);
  for (const id of ids) {
    const deal = (await repo.findBookedDeal(tx, id))!;
    // An earlier asset is made as its approval made it: adjustments and clawbacks since then move it.
    await makeAssets(tx, deal, deal.approved_at!);
    await bookDeal(tx, id, deal);
  }
  await repo.markAssetsBuilt(tx, now);
  return ids.length;
}

interface Booked {
  row: repo.AssetRow;
  asset: CapitalizedAsset | null;
  events: (AssetEvent & { booked_on: string; source_line_id: string | null })[];
}

/**
 * Books the deal's assets again from its lines and status (`deal` as the caller holds it, read when not
 * given); a deal without assets books nothing.
 */
export async function bookDeal(db: Db, dealId: string, known?: repo.BookedDeal): Promise<void> {
  const rows = await repo.assetsOfDeal(db, dealId);
  if (rows.length === 0) return;
  const deal = known ?? (await repo.findBookedDeal(db, dealId))!;
  const booked: Booked[] = rows.map((row) => ({ row, asset: capitalized(row), events: [] }));
  const moving = await repo.dealLines(db, dealId, ["adjustment", "clawback"]);
  for (const line of moving.filter((l) => l.kind === "adjustment")) {
    const target = adjustmentTarget(booked, line);
    if (!target) continue;
    target.events.push({
      type: "adjustment",
      ...when(line.created_at),
      amount: parse(line.amount),
      source_line_id: line.id,
    });
  }
  for (const line of moving.filter((l) => l.kind === "clawback")) distributeClawback(booked, line);
  if (deal.cancelled_at) {
    for (const b of booked) {
      if (b.asset) b.events.push({ type: "impairment", ...when(deal.cancelled_at), source_line_id: null });
    }
  }
  const events: Insertable<AccountingEventsTable>[] = [];
  const postings: repo.PostingRow[] = [];
  const lastMonths = new Map<string, number>();
  for (const b of booked) {
    for (const [seq, e] of b.events.entries()) {
      events.push({
        line_id: b.row.line_id,
        seq,
        type: e.type,
        month: monthIndex(e.month),
        booked_on: e.booked_on,
        amount: e.type === "impairment" ? null : plain(e.amount),
        source_line_id: e.source_line_id,
      });
    }
    const { postings: own, lastMonth } = postingsOf(b);
    postings.push(...own);
    if (lastMonth !== b.row.last_month) lastMonths.set(b.row.line_id, lastMonth);
  }
  await repo.replaceBooking(db as Tx, dealId, events, postings, lastMonths);
}

const when = (t: Date) => ({ month: monthOf(dayOf(t)), booked_on: dayOf(t) });

/** The asset as schedule.ts computes it; null when expensed. */
export function capitalized(row: repo.AssetRow): CapitalizedAsset | null {
  if (row.treatment === "expensed") return null;
  return {
    amount: parse(row.amount),
    places: minorUnits(row.currency),
    months: row.months,
    start_month: monthLabel(row.start_month),
    approval_month: monthLabel(row.approval_month),
  };
}

/**
 * The asset an adjustment moves: the line a retroactive correction names, else the person's asset on the
 * deal in the adjustment's currency — the plan line's, else a SPIFF's, else an override's. Adjustments
 * written before the asset was made move nothing.
 */
function adjustmentTarget(booked: Booked[], line: repo.DealLine): Booked | undefined {
  const mine = booked.filter(
    (b) => b.row.user_id === line.user_id && b.row.currency === line.currency && line.created_at >= b.row.created_at,
  );
  const named = mine.find((b) => b.row.line_id === line.adjusts_line_id);
  if (named) return named;
  return [...mine].sort((a, b) => KIND_ORDER[a.row.kind]! - KIND_ORDER[b.row.kind]!)[0];
}

/**
 * A clawback reduces the assets of the lines it claws (the person's lines of its plan on the deal, a SPIFF's
 * under the plan of their plan line) in line order, each to 0; the last takes what is left, its schedule
 * booking any excess against expense.
 */
function distributeClawback(booked: Booked[], line: repo.DealLine): void {
  let left = negate(parse(line.amount));
  if (sign(left) <= 0) return;
  const mine = booked.filter((b) => b.row.user_id === line.user_id && b.row.currency === line.currency);
  const planOfPlanLine = mine.find((b) => b.row.kind === "plan")?.row.plan_id ?? null;
  const targets = mine.filter(
    (b) => b.row.plan_id === line.plan_id || (b.row.kind === "spiff" && planOfPlanLine === line.plan_id),
  );
  const at = when(line.created_at);
  targets.forEach((t, i) => {
    if (sign(left) <= 0) return;
    const take = i === targets.length - 1 ? left : minFixed(left, balanceAfterAmortization(t, at.month));
    if (sign(take) <= 0) return;
    t.events.push({ type: "clawback", ...at, amount: take, source_line_id: line.id });
    left = minus(left, take);
  });
}

const minFixed = (a: Fixed, b: Fixed): Fixed => (gt(a, b) ? b : a);

/** The balance a clawback booked in `month` finds: that month's closing with the events so far. */
function balanceAfterAmortization(b: Booked, month: string): Fixed {
  if (!b.asset) return ZERO;
  const row = assetSchedule(b.asset, b.events).find((r) => r.month === month);
  return row ? row.closing : ZERO;
}

/**
 * The asset's postings: the addition (or the expense), then by month what the schedule booked; amortization
 * as runs of equal months. An expensed line's adjustments are expense, its clawbacks reduce expense.
 */
function postingsOf(b: Booked): { postings: repo.PostingRow[]; lastMonth: number } {
  return assetPostings(b.row, b.events);
}

/** An asset's postings from its row and the events that moved it (pure: bench/accounting.mjs seeds with it). */
export function assetPostings(
  row: repo.AssetRow,
  events: Booked["events"],
): { postings: repo.PostingRow[]; lastMonth: number } {
  const b: Booked = { row, asset: capitalized(row), events };
  const base = { line_id: row.line_id, currency: row.currency, source_line_id: null };
  const posting = (
    type: repo.PostingRow["type"],
    month: string,
    amount: Fixed,
    booked_on: string,
    source: string | null = null,
  ) => ({
    ...base,
    type,
    first_month: monthIndex(month),
    last_month: monthIndex(month),
    booked_on,
    amount: plain(amount),
    source_line_id: source,
  });
  if (!b.asset) {
    const out = [posting("expense", monthLabel(row.approval_month), parse(row.amount), row.approved_on)];
    for (const e of b.events) {
      if (e.type === "adjustment") out.push(posting("expense", e.month, e.amount, e.booked_on, e.source_line_id));
      if (e.type === "clawback") out.push(posting("clawback_excess", e.month, e.amount, e.booked_on, e.source_line_id));
    }
    return { postings: out, lastMonth: row.approval_month };
  }
  const rows = assetSchedule(b.asset, b.events);
  const out: repo.PostingRow[] = [];
  const eventOf = (month: string, type: AssetEvent["type"]) =>
    b.events.filter((e) => e.month === month && e.type === type).at(-1);
  let run: { first: number; last: number; amount: Fixed } | null = null;
  const closeRun = () => {
    if (run)
      out.push({
        ...base,
        type: "amortization",
        first_month: run.first,
        last_month: run.last,
        booked_on: null,
        amount: plain(run.amount),
      });
    run = null;
  };
  for (const r of rows) {
    const m = r.month;
    if (sign(r.addition) !== 0) out.push(posting("addition", m, r.addition, row.approved_on));
    const adj = eventOf(m, "adjustment");
    if (adj && sign(r.adjustment) !== 0)
      out.push(posting("adjustment", m, r.adjustment, adj.booked_on, adj.source_line_id));
    if (adj && sign(r.expensed) !== 0) out.push(posting("expense", m, r.expensed, adj.booked_on, adj.source_line_id));
    amortize(r);
    const claw = eventOf(m, "clawback");
    if (claw && sign(r.clawback) !== 0)
      out.push(posting("clawback", m, r.clawback, claw.booked_on, claw.source_line_id));
    if (claw && sign(r.clawback_excess) !== 0) {
      out.push(posting("clawback_excess", m, r.clawback_excess, claw.booked_on, claw.source_line_id));
    }
    const imp = eventOf(m, "impairment");
    if (imp && sign(r.impairment) !== 0) out.push(posting("impairment", m, r.impairment, imp.booked_on));
  }
  closeRun();
  return { postings: out, lastMonth: monthIndex(rows.at(-1)!.month) };

  function amortize(r: ScheduleMonth) {
    const index = monthIndex(r.month);
    if (sign(r.amortization) === 0) return closeRun();
    if (run && run.last === index - 1 && plain(run.amount) === plain(r.amortization)) {
      run.last = index;
      return;
    }
    closeRun();
    run = { first: index, last: index, amount: r.amortization };
  }
}
