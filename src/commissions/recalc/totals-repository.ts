import { sql } from "kysely";
import type { Tx } from "../../context.js";
import { type Fixed, minus, parse, plain, plus, sign, ZERO } from "../../money/index.js";
import { chunks } from "./chunks.js";

/** A deal's total_commission is Σ its non-void lines: kept so by every writer of lines. */

/** Σ per deal of what each written line added to its deal's total (new amount − the amount it counted before). */
export class TotalDeltas {
  readonly byDeal = new Map<string, Fixed>();
  add(dealId: string, amount: string, sign: 1 | -1 = 1): void {
    const value = parse(amount);
    const before = this.byDeal.get(dealId) ?? ZERO;
    this.byDeal.set(dealId, sign === 1 ? plus(before, value) : minus(before, value));
  }
}

/**
 * total_commission = Σ non-void lines; a deal whose total moved gets a new updated_at (sync by
 * updated_since). Each deal's sum is an index lookup by deal_id, and the deals are found by their ids,
 * so the cost follows the deals named, not the size of either table (a job calls this once per batch).
 */
export async function updateTotals(tx: Tx, now: Date, dealIds: string[]): Promise<void> {
  for (const part of chunks(dealIds, 5000)) {
    await sql`
      WITH t AS MATERIALIZED (
        SELECT x.id, (
          SELECT COALESCE(SUM(l.amount), 0) FROM commission_lines l WHERE l.deal_id = x.id AND l.status <> 'void'
        ) AS total
        FROM unnest(${part}::text[]) AS x(id)
      )
      UPDATE deals AS d SET total_commission = t.total, updated_at = ${now}
      FROM t
      WHERE d.id = ANY(${part}::text[]) AND d.id = t.id AND d.total_commission <> t.total`.execute(tx);
  }
}

/**
 * total_commission += each deal's delta (deals whose total moved get a new updated_at): what a
 * recalculation's own writes changed, without summing every line of every deal again. `+=` is applied to
 * the row as it stands when its lock is granted, so a concurrent writer's change to the same deal is kept.
 */
export async function addToTotals(tx: Tx, now: Date, deltas: Map<string, Fixed>): Promise<void> {
  const moved = [...deltas].filter(([, d]) => sign(d) !== 0).map(([id, d]) => ({ id, delta: plain(d) }));
  for (const part of chunks(moved, 5000)) {
    await sql`
      UPDATE deals AS d SET total_commission = d.total_commission + v.delta, updated_at = ${now}
      FROM jsonb_to_recordset(${JSON.stringify(part)}::jsonb) AS v(id text, delta numeric)
      WHERE d.id = v.id`.execute(tx);
  }
}
