import type { Selectable } from "kysely";
import { ofVisiblePlans, ofVisibleUsers, type Visible } from "../access/index.js";
import type { Tx } from "../context.js";
import type { CompPlansTable, Db } from "../db/schema.js";
import { anyOf } from "../db/sql.js";
import type { ClawbackColumn, OverrideLevelColumn } from "../db/tables-sales.js";
import type { PlanKind } from "../enums.js";
import { toIso } from "../http/date-fields.js";
import type { CompPlan, ListPlansQuery, PlanVersion } from "./schema.js";

type Row = Selectable<CompPlansTable>;

/** The terms a commission is calculated with; decimals as exact strings. A version freezes them. */
export interface PlanTerms {
  currency: string;
  period: "month" | "quarter" | "year";
  quota: string | null;
  base_rate: string | null;
  tiers: { from_attainment: string; rate: string }[];
  deal_type_multipliers: Record<string, string>;
  min_deal_amount: string | null;
  cap_per_period: string | null;
  effective_from: string;
  effective_to: string | null;
  /** API.md §14, versioned with the terms; percent an exact decimal string. */
  clawback: ClawbackColumn | null;
  /** API.md §16: an override plan's rate per depth (ascending), rates exact decimal strings; null on a standard plan. */
  override_levels: OverrideLevelColumn[] | null;
  /** API.md §15: the oldest exchange rate, in days before close_date, a conversion under these terms takes. */
  fx_max_age_days: number;
}

export interface PlanRecord extends PlanTerms {
  id: string;
  /** Fixed when the plan is created (API.md §16); versions share it. */
  kind: PlanKind;
  name: string;
  description: string | null;
  status: "draft" | "active" | "archived";
  version: number;
  created_at: Date;
  updated_at: Date;
}

const num = (v: string | null) => (v === null ? null : Number(v));

/** The terms as the API writes them (numbers, never decimal strings): a plan's and a version's alike. */
function termsOut(r: PlanTerms) {
  return {
    currency: r.currency,
    period: r.period,
    quota: num(r.quota),
    base_rate: num(r.base_rate),
    tiers: r.tiers.map((t) => ({ from_attainment: Number(t.from_attainment), rate: Number(t.rate) })),
    deal_type_multipliers: Object.fromEntries(Object.entries(r.deal_type_multipliers).map(([k, v]) => [k, Number(v)])),
    min_deal_amount: num(r.min_deal_amount),
    cap_per_period: num(r.cap_per_period),
    effective_from: r.effective_from,
    effective_to: r.effective_to,
    clawback: r.clawback && { ...r.clawback, percent: Number(r.clawback.percent) },
    override_levels:
      r.override_levels === null ? null : r.override_levels.map((l) => ({ depth: l.depth, rate: Number(l.rate) })),
    fx_max_age_days: r.fx_max_age_days,
  };
}

export function toPlan(r: PlanRecord): CompPlan {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    status: r.status,
    kind: r.kind,
    ...termsOut(r),
    version: r.version,
    created_at: toIso(r.created_at)!,
    updated_at: toIso(r.updated_at)!,
  };
}

function toRecord(row: Row): PlanRecord {
  return { ...row, created_at: new Date(row.created_at), updated_at: new Date(row.updated_at) };
}

export function termsOf(r: PlanTerms): PlanTerms {
  return {
    currency: r.currency,
    period: r.period,
    quota: r.quota,
    base_rate: r.base_rate,
    tiers: r.tiers,
    deal_type_multipliers: r.deal_type_multipliers,
    min_deal_amount: r.min_deal_amount,
    cap_per_period: r.cap_per_period,
    effective_from: r.effective_from,
    effective_to: r.effective_to,
    clawback: r.clawback,
    override_levels: r.override_levels,
    fx_max_age_days: r.fx_max_age_days,
  };
}

function termColumns(t: PlanTerms) {
  return {
    ...termsOf(t),
    tiers: JSON.stringify(t.tiers),
    deal_type_multipliers: JSON.stringify(t.deal_type_multipliers),
    clawback: t.clawback === null ? null : JSON.stringify(t.clawback),
    override_levels: t.override_levels === null ? null : JSON.stringify(t.override_levels),
  };
}

async function insertVersion(tx: Tx, r: PlanRecord): Promise<void> {
  await tx
    .insertInto("comp_plan_versions")
    .values({ plan_id: r.id, version: r.version, ...termColumns(r), created_at: r.updated_at })
    .execute();
}

export async function insertPlan(tx: Tx, r: PlanRecord): Promise<PlanRecord> {
  const row = await tx
    .insertInto("comp_plans")
    .values({ ...r, ...termColumns(r) })
    .returningAll()
    .executeTakeFirstOrThrow();
  await insertVersion(tx, r);
  return toRecord(row);
}

/** Saves the plan; a new version gets its own frozen row, otherwise the current version's row follows. */
export async function updatePlan(tx: Tx, r: PlanRecord, newVersion: boolean): Promise<PlanRecord> {
  const { id, created_at: _created, ...rest } = r;
  const row = await tx
    .updateTable("comp_plans")
    .set({ ...rest, ...termColumns(r) })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (newVersion) await insertVersion(tx, r);
  else {
    await tx
      .updateTable("comp_plan_versions")
      .set(termColumns(r))
      .where("plan_id", "=", id)
      .where("version", "=", r.version)
      .execute();
  }
  return toRecord(row);
}

export async function findPlanRecord(db: Db, id: string): Promise<PlanRecord | undefined> {
  const row = await db.selectFrom("comp_plans").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toRecord(row);
}

/** FOR NO KEY UPDATE: serializes plan edits and assignment changes without blocking foreign-key checks. */
export async function lockPlanRecord(tx: Tx, id: string): Promise<PlanRecord | undefined> {
  const row = await tx.selectFrom("comp_plans").selectAll().where("id", "=", id).forNoKeyUpdate().executeTakeFirst();
  return row && toRecord(row);
}

/** Whether any commission line was calculated with this version (then its terms are frozen). */
export async function versionInUse(db: Db, planId: string, version: number): Promise<boolean> {
  const row = await db
    .selectFrom("commission_lines")
    .select("id")
    .where("plan_id", "=", planId)
    .where("plan_version", "=", version)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** True when the plan is assigned (at any time) to one of the users (every plan with `visible` null). */
export async function planSeen(db: Db, id: string, visible: Visible): Promise<boolean> {
  if (!visible) return true;
  const row = await db
    .selectFrom("plan_assignments")
    .select("id")
    .where("plan_id", "=", id)
    .where(ofVisibleUsers("user_id", visible))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function listPlans(db: Db, q: ListPlansQuery, visible: Visible, limit: number, offset: number) {
  let query = db.selectFrom("comp_plans");
  if (visible) query = query.where(ofVisiblePlans("id", visible));
  if (q.status) query = query.where("status", "=", q.status);
  if (q.kind) query = query.where("kind", "=", q.kind);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => toPlan(toRecord(r))), total: Number(count.n) };
}

/** The plan's versions, newest first: each one's terms as lines were (or will be) calculated with them. */
export async function listVersions(db: Db, planId: string, limit: number, offset: number) {
  const query = db.selectFrom("comp_plan_versions").where("plan_id", "=", planId);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy("version", "desc").limit(limit).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const versions: PlanVersion[] = rows.map((row) => ({
    plan_id: row.plan_id,
    version: row.version,
    ...termsOut(row),
    created_at: toIso(row.created_at)!,
  }));
  return { rows: versions, total: Number(count.n) };
}

/** What an impact line names its deal by, for the deals of one page of lines: one read, by deal id. */
export async function impactDeals(
  db: Db,
  dealIds: string[],
): Promise<Map<string, { opportunity_name: string; close_date: string }>> {
  if (dealIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("deals")
    .select(["id", "opportunity_name", "close_date"])
    .where(anyOf("id", [...new Set(dealIds)]))
    .execute();
  return new Map(rows.map((r) => [r.id, { opportunity_name: r.opportunity_name, close_date: r.close_date }]));
}
