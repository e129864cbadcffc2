import { type RawBuilder, sql } from "kysely";
import type { Tx } from "../context.js";
import { isoText, textArray } from "../db/sql.js";
import { dealJsonb } from "./deal-json-repository.js";

// The SQL of a payout run's deal settlement (settle.ts): thousands of deals paid in one UPDATE, and the
// rows of their audit and `deal.paid` events rendered by PostgreSQL, never carried through JavaScript.

/** A deal finalize locked, with the columns settling may change as they were (RFC 3339 text). */
export interface LockedDeal {
  id: string;
  paid_at: string | null;
  updated_at: string;
}

/**
 * Locks the deals of a payout run's lines in id order, reading no more of them than settling needs: a
 * run's finalize locks thousands.
 */
export async function lockDealsOfRun(tx: Tx, runId: string): Promise<LockedDeal[]> {
  const { rows } = await sql<LockedDeal>`
    SELECT d.id, ${isoText(sql.ref("d.paid_at"))} AS paid_at, ${isoText(sql.ref("d.updated_at"))} AS updated_at
    FROM deals d WHERE d.id IN (SELECT l.deal_id FROM commission_lines l WHERE l.payout_run_id = ${runId})
    ORDER BY d.id FOR UPDATE OF d`.execute(tx);
  return rows;
}

/**
 * Of these deals (the caller holds them locked), each `approved` one whose non-void lines are all paid →
 * `paid` at `at`. Returns their ids.
 */
export async function payFullyPaidDeals(tx: Tx, ids: string[], at: Date): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { rows } = await sql<{ id: string }>`
    UPDATE deals d SET status = 'paid', paid_at = ${at}, updated_at = ${at}
    FROM unnest(${textArray(ids)}) AS i (id)
    WHERE d.id = i.id AND d.status = 'approved'
      AND EXISTS (SELECT 1 FROM commission_lines l WHERE l.deal_id = d.id AND l.status = 'paid')
      AND NOT EXISTS (SELECT 1 FROM commission_lines l WHERE l.deal_id = d.id AND l.status NOT IN ('paid', 'void'))
    RETURNING d.id`.execute(tx);
  return new Set(rows.map((r) => r.id));
}

/** The rows of recordPaidDeals' audit INSERT: ord, resource_id, before, after, line_totals. */
export const PAID_DEAL_AUDITS = sql`SELECT ord, id AS resource_id, before, deal AS after,
  jsonb_build_object('before', totals, 'after', totals) AS line_totals FROM r`;

/** The rows of recordPaidDeals' event INSERT: ord, data. */
export const PAID_DEAL_EVENTS = sql`SELECT ord, jsonb_build_object('object', deal) AS data FROM r`;

/**
 * The audit rows and `deal.paid` events of the deals paid (the INSERTs of PAID_DEAL_AUDITS and
 * PAID_DEAL_EVENTS, audit/ and events/ build them), in one statement that renders each deal once
 * (`r`, in the order given; OFFSET 0 keeps the planner from copying the rendering into each use): the
 * deal before (the paid deal with the columns the UPDATE changed as they were) and after, and each
 * person's non-void line total (paying moves none of them, so before and after are the same).
 */
export async function recordPaidDeals(
  tx: Tx,
  paid: LockedDeal[],
  inserts: { audit: RawBuilder<unknown>; event: RawBuilder<unknown> },
): Promise<void> {
  if (paid.length === 0) return;
  await sql`
    WITH r AS MATERIALIZED (
      SELECT c.ord, p.id, d.deal,
        d.deal || jsonb_build_object('status', 'approved', 'paid_at', c.paid_before, 'updated_at', c.updated_before)
          AS before, t.totals
      FROM unnest(${textArray(paid.map((d) => d.id))}, ${textArray(paid.map((d) => d.paid_at))},
        ${textArray(paid.map((d) => d.updated_at))}) WITH ORDINALITY AS c (id, paid_before, updated_before, ord)
      JOIN deals p ON p.id = c.id
      CROSS JOIN LATERAL (SELECT ${dealJsonb} AS deal OFFSET 0) d
      CROSS JOIN LATERAL (SELECT coalesce(jsonb_object_agg(x.user_id, x.total), '{}') AS totals
        FROM (SELECT l.user_id, trim_scale(sum(l.amount))::text AS total FROM commission_lines l
          WHERE l.deal_id = p.id AND l.status <> 'void' GROUP BY l.user_id) x) t
    ),
    audited AS (${inserts.audit}),
    emitted AS (${inserts.event})
    SELECT 1`.execute(tx);
}
