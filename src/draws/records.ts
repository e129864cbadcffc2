import type { Db } from "../db/schema.js";
import { toIso } from "../http/date-fields.js";
import { type Fixed, moneyNumber, parse, plus, ZERO } from "../money/index.js";
import { periodsBetween } from "./periods.js";
import * as repo from "./repository.js";
import type { Draw } from "./schema.js";

// A draw as the API shows it (API.md §18): its row, every period (settled or not) and its entries.

/** The balance of a draw's entries: Σ amounts for a recoverable draw, always 0 for a non-recoverable one. */
export function balanceOf(draw: Pick<repo.DrawRow, "kind">, entries: readonly { amount: string }[]): Fixed {
  if (draw.kind !== "recoverable") return ZERO;
  return entries.reduce((sum, e) => plus(sum, parse(e.amount)), ZERO);
}

export function toDraw(
  row: repo.DrawRow,
  periods: readonly repo.DrawPeriodRow[],
  entries: readonly repo.DrawEntryRow[],
  today: string,
): Draw {
  const money = (text: string) => moneyNumber(parse(text), row.currency);
  const settled = new Map(periods.map((p) => [p.period, p]));
  return {
    id: row.id,
    user_id: row.user_id,
    kind: row.kind,
    amount: money(row.amount),
    currency: row.currency,
    period: row.period,
    starts_on: row.starts_on,
    ends_on: row.ends_on,
    recovery_starts_on: row.recovery_starts_on,
    status: row.ends_on < today ? "ended" : "active",
    balance: moneyNumber(balanceOf(row, entries), row.currency),
    periods: periodsBetween(row.starts_on, row.ends_on, row.period).map((p) => {
      const s = settled.get(p.label);
      return {
        period: p.label,
        starts_on: p.starts_on,
        ends_on: p.ends_on,
        earned: s ? money(s.earned) : null,
        advance: s ? money(s.advance) : null,
        payout_run_id: s?.payout_run_id ?? null,
      };
    }),
    entries: entries.map((e) => ({
      type: e.type,
      amount: money(e.amount),
      line_id: e.line_id,
      payout_run_id: e.payout_run_id,
      reason: e.reason,
      created_at: toIso(e.created_at)!,
    })),
    created_at: toIso(row.created_at)!,
    updated_at: toIso(row.updated_at)!,
  };
}

/** The draws as the API shows them, in the order given. */
export async function drawsOf(db: Db, rows: repo.DrawRow[], today: string): Promise<Draw[]> {
  const { periods, entries } = await repo.detailsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toDraw(r, periods.get(r.id)!, entries.get(r.id)!, today));
}

export const todayOf = (now: Date) => now.toISOString().slice(0, 10);
