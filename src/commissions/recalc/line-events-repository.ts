import { sql } from "kysely";
import type { Ctx, Tx } from "../../context.js";
import { isoText, textArray } from "../../db/sql.js";
import { emitInsert } from "../../events/emit.js";

// A recalculation's `commission.calculated` events, rendered by PostgreSQL from the lines it has just
// written: a wide one writes millions, and sending each explanation a second time (in the event) was about
// a sixth of its time (bench/README.md, overrides).

/** A written line whose amount changed: its id, and the amount it counted before (null: none). */
export interface LineEvent {
  id: string;
  previous_amount: string | null;
}

/**
 * The events' rows (ord, data) for emitInsert: each line as the API's Commission (toCommission in
 * lines/repository.ts; amounts as their shortest decimal, which is the JSON number JavaScript writes for
 * them) and its previous amount.
 */
function lineEventRows(events: LineEvent[]) {
  const l = (column: string) => sql.ref(`l.${column}`);
  return sql`SELECT c.ord, jsonb_build_object(
      'previous_amount', trim_scale(c.previous::numeric),
      'object', jsonb_build_object('id', ${l("id")}, 'deal_id', ${l("deal_id")}, 'user_id', ${l("user_id")},
        'plan_id', ${l("plan_id")}, 'plan_version', ${l("plan_version")}, 'spiff_id', ${l("spiff_id")}, 'kind', ${l("kind")},
        'period', ${l("period")}, 'amount', trim_scale(${l("amount")}), 'status', ${l("status")}, 'locked', ${l("locked")},
        'explanation', ${l("explanation")}, 'calculated_at', ${isoText(l("calculated_at"))}, 'currency', ${l("currency")},
        'payout_run_id', ${l("payout_run_id")}, 'draw_id', ${l("draw_id")})) AS data
    FROM unnest(${textArray(events.map((e) => e.id))}, ${textArray(events.map((e) => e.previous_amount))})
      WITH ORDINALITY AS c (id, previous, ord)
    JOIN commission_lines l ON l.id = c.id`;
}

/** One `commission.calculated` event per line, in the order given, in the caller's transaction. */
export async function emitLineEvents(tx: Tx, ctx: Ctx, events: LineEvent[]): Promise<void> {
  if (events.length === 0) return;
  await (await emitInsert(ctx, "commission.calculated", lineEventRows(events), events.length)).execute(tx);
}
