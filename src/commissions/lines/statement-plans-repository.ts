import { sql } from "kysely";
import type { Db } from "../../db/schema.js";
import type { PlanKind, PlanPeriod } from "../../enums.js";

/** The terms of one plan version a statement shows: what the rep home draws its gauge and next tier from. */
export interface PlanVersionTerms {
  name: string;
  currency: string;
  period: PlanPeriod;
  base_rate: string | null;
  tiers: { from_attainment: string; rate: string }[];
  cap_per_period: string | null;
}

/**
 * An assignment of a person to an active plan, with the plan's kind, currency and period kind: a
 * statement's default currency (statement-currency.ts) and the period of the plan in force on a date.
 */
export interface PlanSpan {
  effective_from: string;
  effective_to: string | null;
  kind: PlanKind;
  currency: string;
  period: PlanPeriod;
}

type SpanRow = PlanSpan & { user_id: string };
const spansOf = (userIds: readonly string[]) => sql<SpanRow>`
  SELECT a.user_id, a.effective_from, a.effective_to, p.kind, p.currency, p.period
  FROM plan_assignments a JOIN comp_plans p ON p.id = a.plan_id
  WHERE a.user_id = ANY(${[...userIds]}::text[]) AND p.status = 'active'`;

function bySpanUser(userIds: readonly string[], rows: readonly SpanRow[]): Map<string, PlanSpan[]> {
  const out = new Map<string, PlanSpan[]>(userIds.map((id) => [id, []]));
  for (const { user_id, effective_from, effective_to, kind, currency, period } of rows)
    out.get(user_id)?.push({ effective_from, effective_to, kind, currency, period });
  return out;
}

/** Each user's assignments to active plans, by user id (every user given has an entry). */
export async function planSpans(db: Db, userIds: readonly string[]): Promise<Map<string, PlanSpan[]>> {
  if (userIds.length === 0) return new Map();
  return bySpanUser(userIds, (await spansOf(userIds).execute(db)).rows);
}

type TermsRow = Omit<PlanVersionTerms, "tiers"> & { plan_id: string; version: number; tiers: unknown };

/**
 * The named versions of plans (keyed `plan_id@version`) and these users' `planSpans`, in one statement:
 * the plan versions and assignments a page of statements needs, whatever its size.
 */
export async function planTermsAndSpans(
  db: Db,
  versions: readonly { plan_id: string; version: number }[],
  userIds: readonly string[],
): Promise<{ terms: Map<string, PlanVersionTerms>; spans: Map<string, PlanSpan[]> }> {
  const terms = new Map<string, PlanVersionTerms>();
  if (versions.length === 0 && userIds.length === 0) return { terms, spans: new Map() };
  const planIds = [...new Set(versions.map((v) => v.plan_id))];
  const numbers = [...new Set(versions.map((v) => v.version))];
  // One row shape for both: a plan version's row has no user_id, an assignment's no plan_id.
  const { rows } = await sql<(TermsRow & { user_id: null }) | (SpanRow & { plan_id: null })>`
    SELECT NULL::text AS user_id, v.plan_id, v.version, p.name, v.currency, v.period, v.base_rate, v.tiers,
      v.cap_per_period, NULL::date AS effective_from, NULL::date AS effective_to, NULL::text AS kind
    FROM comp_plan_versions v JOIN comp_plans p ON p.id = v.plan_id
    WHERE v.plan_id = ANY(${planIds}::text[]) AND v.version = ANY(${numbers}::int[])
    UNION ALL
    SELECT s.user_id, NULL, NULL, NULL, s.currency, s.period, NULL, NULL, NULL, s.effective_from, s.effective_to, s.kind
    FROM (${spansOf(userIds)}) s`.execute(db);
  const wanted = new Set(versions.map((v) => `${v.plan_id}@${v.version}`));
  const spanRows: SpanRow[] = [];
  for (const r of rows) {
    if (r.plan_id === null) {
      spanRows.push(r);
      continue;
    }
    const key = `${r.plan_id}@${r.version}`;
    if (!wanted.has(key)) continue;
    const tiers = typeof r.tiers === "string" ? JSON.parse(r.tiers) : r.tiers;
    terms.set(key, {
      name: r.name,
      currency: r.currency,
      period: r.period,
      base_rate: r.base_rate,
      tiers: tiers ?? [],
      cap_per_period: r.cap_per_period,
    });
  }
  return { terms, spans: bySpanUser(userIds, spanRows) };
}
