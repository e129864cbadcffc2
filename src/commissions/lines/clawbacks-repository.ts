import { sql } from "kysely";
import type { Tx } from "../../context.js";
import type { Db } from "../../db/schema.js";
import type { ClawbackPlan, ClawbackSourceLine } from "../engine/index.js";
import { versionKey } from "../engine/index.js";

// The SQL of clawbacks (API.md §14): a deal's lines as the computation reads them (amounts as exact text),
// the clawed versions' policies, and the clawback lines a cancellation or refund writes.

/** Every line of the deal, void ones too, in the order of GET /deals/{id}'s lines. */
export async function clawbackSourceLines(db: Db, dealId: string): Promise<ClawbackSourceLine[]> {
  const { rows } = await sql<ClawbackSourceLine>`
    SELECT l.id, l.user_id, l.kind, l.plan_id, l.plan_version, l.amount::text AS amount, l.status, l.currency
    FROM commission_lines l
    LEFT JOIN deal_splits s ON s.deal_id = l.deal_id AND s.user_id = l.user_id
    WHERE l.deal_id = ${dealId}
    ORDER BY CASE l.kind WHEN 'plan' THEN 0 WHEN 'spiff' THEN 1 ELSE 2 END, s.position NULLS LAST, l.spiff_id, l.id`.execute(
    db,
  );
  return rows;
}

/** The name and clawback policy of each (plan, version) named, keyed by `versionKey`. */
export async function clawbackPlans(
  db: Db,
  versions: { plan_id: string; version: number }[],
): Promise<Map<string, ClawbackPlan>> {
  const plans = new Map<string, ClawbackPlan>();
  if (versions.length === 0) return plans;
  const rows = await db
    .selectFrom("comp_plan_versions as v")
    .innerJoin("comp_plans as p", "p.id", "v.plan_id")
    .select(["v.plan_id", "v.version", "v.clawback", "p.name"])
    .where((eb) =>
      eb.or(versions.map((k) => eb.and([eb("v.plan_id", "=", k.plan_id), eb("v.version", "=", k.version)]))),
    )
    .execute();
  for (const r of rows) plans.set(versionKey(r.plan_id, r.version), { name: r.name, policy: r.clawback });
  return plans;
}

export interface NewClawbackRow {
  id: string;
  deal_id: string;
  user_id: string;
  plan_id: string;
  plan_version: number;
  period: string;
  amount: string;
  currency: string;
  explanation: unknown;
  refund_id: string | null;
}

/** Clawback lines: approved and locked from the start, like adjustments; a recalculation never reads them. */
export async function insertClawbacks(tx: Tx, lines: NewClawbackRow[], now: Date): Promise<void> {
  if (lines.length === 0) return;
  await tx
    .insertInto("commission_lines")
    .values(
      lines.map((line) => ({
        ...line,
        spiff_id: null,
        kind: "clawback" as const,
        status: "approved" as const,
        locked: true,
        explanation: JSON.stringify(line.explanation),
        calculated_at: now,
        created_at: now,
      })),
    )
    .execute();
}
