import { sql } from "kysely";
import type { Tx } from "../../context.js";
import { chunks } from "./chunks.js";
import type { FxMissingChange } from "./fx-missing.js";

/** Stores the override lines' missing pairs of these deals (API.md §15). */
export async function updateOverrideFxMissing(tx: Tx, changes: FxMissingChange[]): Promise<void> {
  for (const part of chunks(changes)) {
    await sql`
      UPDATE deals AS d SET override_fx_missing = v.fx_missing
      FROM jsonb_to_recordset(${JSON.stringify(part)}::jsonb) AS v(deal_id text, fx_missing jsonb)
      WHERE d.id = v.deal_id`.execute(tx);
  }
}

/**
 * Each deal's `fx_missing` again from its credits' and its override lines' pairs, written as the API's
 * JSON text (pairs by from, then to); a deal it changes is updated.
 */
export async function refreshFxMissing(tx: Tx, now: Date, dealIds: string[]): Promise<void> {
  for (const part of chunks([...new Set(dealIds)], 5000)) {
    await sql`
      WITH pairs AS (
        SELECT x.id, (
          SELECT '[' || string_agg('{"from":' || to_json(e->>'from')::text || ',"to":' || to_json(e->>'to')::text
                   || ',"close_date":' || to_json(e->>'close_date')::text || '}', ','
                   ORDER BY e->>'from' COLLATE "C", e->>'to' COLLATE "C", e->>'close_date') || ']'
          FROM (
            SELECT DISTINCT e FROM (
              SELECT jsonb_array_elements(s.fx_missing) AS e FROM deal_splits s
              WHERE s.deal_id = x.id AND s.fx_missing IS NOT NULL
              UNION ALL
              SELECT jsonb_array_elements(o.override_fx_missing) FROM deals o
              WHERE o.id = x.id AND o.override_fx_missing IS NOT NULL
            ) a
          ) b
        ) AS text
        FROM unnest(${part}::text[]) AS x(id)
      )
      UPDATE deals AS d SET fx_missing = coalesce(pairs.text, '[]'), updated_at = ${now}
      FROM pairs WHERE d.id = pairs.id AND d.fx_missing <> coalesce(pairs.text, '[]')`.execute(tx);
  }
}
