import type { LightMyRequestResponse } from "fastify";
import { sql } from "kysely";
import { expect } from "vitest";
import type { PlanImpact } from "../../src/comp-plans/index.js";
import type { Api } from "../factories-commissions.js";
import { ok } from "../factories-commissions.js";
import { bearer, type TestApp } from "../harness.js";

/** Helpers of the plan-impact tests: the whole impact (every page), stored lines, row counts. */

export type ImpactLine = PlanImpact["lines"]["data"][number];

/** Money (a JSON number or numeric text) in integer cents, so sums are exact. */
export const toCents = (v: number | string): number => Math.round(Number(v) * 100);

type Post = (url: string, body: unknown) => Promise<LightMyRequestResponse>;

/**
 * An admin client on one key made now: unlike `Api`, it never creates a key (an api_keys and an
 * audit row) in the middle of a row count. Keep it under the per-key limit (100 requests a minute).
 */
export async function fixedAdmin(t: TestApp): Promise<{ post: Post }> {
  const { key } = await t.key("admin");
  return {
    post: (url, body) =>
      t.app.inject({ method: "POST", url: `/api/v1${url}`, headers: bearer(key), payload: body as object }),
  };
}

/** POST /impact, every page of `lines` walked (per_page 100); the first page's body and all lines. */
export async function impactOf(
  client: Api | { post: Post },
  planId: string,
  body: unknown,
): Promise<{ impact: PlanImpact; lines: ImpactLine[] }> {
  const first = ok<PlanImpact>(await client.post(`/comp-plans/${planId}/impact?per_page=100`, body));
  const lines = [...first.lines.data];
  for (let page = 2; lines.length < first.lines.meta.total; page++) {
    const next = ok<PlanImpact>(await client.post(`/comp-plans/${planId}/impact?per_page=100&page=${page}`, body));
    expect(next.lines.data.length).toBeGreaterThan(0);
    lines.push(...next.lines.data);
  }
  expect(lines.length).toBe(first.summary.lines);
  return { impact: first, lines };
}

export interface StoredLine {
  id: string;
  deal_id: string;
  user_id: string;
  kind: string;
  spiff_id: string | null;
  period: string;
  amount: string;
  status: string;
  locked: boolean;
  plan_version: number | null;
  adjusts_line_id: string | null;
  explanation: Record<string, unknown>;
}

/** Every stored line of these deals, by id. */
export async function storedLines(t: TestApp, dealIds: string[]): Promise<StoredLine[]> {
  if (dealIds.length === 0) return [];
  const { rows } = await sql<StoredLine>`
    SELECT id, deal_id, user_id, kind, spiff_id, period, amount::text AS amount, status, locked, plan_version,
           adjusts_line_id, explanation
    FROM commission_lines WHERE deal_id = ANY(${dealIds}::text[]) ORDER BY id`.execute(t.db.db);
  return rows;
}

/** The stored total_commission of each deal against Σ of its non-void lines (§5 rule 7). */
export async function expectTotalsMatchLines(t: TestApp, dealIds: string[]): Promise<void> {
  const { rows } = await sql<{ id: string; total: string; sum: string }>`
    SELECT d.id, d.total_commission::text AS total,
           COALESCE((SELECT SUM(l.amount) FROM commission_lines l WHERE l.deal_id = d.id AND l.status <> 'void'), 0)::text
             AS sum
    FROM deals d WHERE d.id = ANY(${dealIds}::text[])`.execute(t.db.db);
  expect(rows.length).toBe(dealIds.length);
  for (const r of rows) expect([r.id, toCents(r.total)]).toEqual([r.id, toCents(r.sum)]);
}

/** Tables a plan change (or its impact) could write. */
const TABLES = [
  "commission_lines",
  "deals",
  "deal_splits",
  "events",
  "audit_events",
  "comp_plans",
  "comp_plan_versions",
  "plan_assignments",
  "jobs",
  "webhook_deliveries",
  "idempotency_keys",
] as const;

export async function rowCounts(t: TestApp): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const { rows } = await sql<{ n: string }>`SELECT COUNT(*)::text AS n FROM ${sql.table(table)}`.execute(t.db.db);
    counts[table] = Number(rows[0]!.n);
  }
  return counts;
}

/** The plan's row and its versions, as stored. */
export async function planRows(t: TestApp, planId: string) {
  const plan = await t.db.db.selectFrom("comp_plans").selectAll().where("id", "=", planId).executeTakeFirstOrThrow();
  const versions = await t.db.db
    .selectFrom("comp_plan_versions")
    .selectAll()
    .where("plan_id", "=", planId)
    .orderBy("version")
    .execute();
  return { plan, versions };
}

/** Per line id: its commission.calculated events' previous_amount, and its commission.adjust audit rows. */
export async function trailOf(t: TestApp, lineIds: string[]) {
  if (lineIds.length === 0) return { events: new Map<string, unknown[]>(), audits: new Map<string, string[]>() };
  const { rows: events } = await sql<{ id: string; previous: unknown }>`
    SELECT data -> 'object' ->> 'id' AS id, data -> 'previous_amount' AS previous FROM events
    WHERE type = 'commission.calculated' AND data -> 'object' ->> 'id' = ANY(${lineIds}::text[])
    ORDER BY id`.execute(t.db.db);
  const { rows: audits } = await sql<{ id: string; action: string }>`
    SELECT resource_id AS id, action FROM audit_events
    WHERE resource = 'commission' AND resource_id = ANY(${lineIds}::text[]) ORDER BY id`.execute(t.db.db);
  const group = <T>(rows: { id: string }[], pick: (r: never) => T) => {
    const map = new Map<string, T[]>();
    for (const r of rows) map.set(r.id, [...(map.get(r.id) ?? []), pick(r as never)]);
    return map;
  };
  return {
    events: group(events, (r: { previous: unknown }) => r.previous),
    audits: group(audits, (r: { action: string }) => r.action),
  };
}
