import { type Expression, type ExpressionBuilder, type SqlBool, sql } from "kysely";
import type { DB, Db } from "../../db/schema.js";
import { anyOf } from "../../db/sql.js";
import { type FxMissing, MAX_OVERRIDE_DEPTH, type ReportingLineInput } from "../engine/index.js";
import type { DealCols } from "./inputs.js";
import type { DateRange, ExistingLine, RecalcTarget } from "./types.js";

/** Reads of the override pass (API.md §16): which deals a change reaches, their splits, who manages whom. */

type DealsEb = ExpressionBuilder<DB & { d: DB["deals"] }, "d">;

function inRanges(eb: DealsEb, ranges: DateRange[]): Expression<SqlBool> {
  return eb.or(
    ranges.map((r) =>
      r.to === null
        ? eb("d.close_date", ">=", r.from)
        : eb.and([eb("d.close_date", ">=", r.from), eb("d.close_date", "<=", r.to)]),
    ),
  );
}

/** Everyone who was ever below these users, within the deepest override level (any date). */
export async function everBelow(db: Db, roots: string[]): Promise<string[]> {
  const seen = new Set(roots);
  let frontier = roots;
  for (let depth = 1; depth <= MAX_OVERRIDE_DEPTH && frontier.length > 0; depth++) {
    const rows = await db
      .selectFrom("reporting_lines")
      .select("user_id")
      .distinct()
      .where(anyOf("manager_id", frontier))
      .execute();
    frontier = rows.map((r) => r.user_id).filter((id) => !seen.has(id));
    for (const id of frontier) seen.add(id);
  }
  for (const root of roots) seen.delete(root);
  return [...seen];
}

/** Pending deals crediting one of these users, closing within the ranges (all dates when omitted). */
async function dealsCrediting(db: Db, users: string[], ranges?: DateRange[]): Promise<string[]> {
  if (users.length === 0) return [];
  const rows = await db
    .selectFrom("deals as d")
    .select("d.id")
    .where("d.status", "=", "pending")
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("deal_splits as s")
          .select("s.deal_id")
          .whereRef("s.deal_id", "=", "d.id")
          .where(anyOf("s.user_id", users)),
      ),
    )
    .$if(ranges !== undefined, (q) => q.where((eb) => inRanges(eb, ranges!)))
    .execute();
  return rows.map((r) => r.id);
}

/** Pending deals holding an unlocked override line of this manager (or of this plan), within the ranges. */
async function dealsWithOverrideLines(
  db: Db,
  by: { user_id: string } | { plan_id: string },
  ranges?: DateRange[],
): Promise<string[]> {
  const rows = await db
    .selectFrom("commission_lines as l")
    .innerJoin("deals as d", "d.id", "l.deal_id")
    .select("l.deal_id")
    .where("l.kind", "=", "override")
    .where("l.locked", "=", false)
    .where("d.status", "=", "pending")
    .$if("user_id" in by, (q) => q.where("l.user_id", "=", (by as { user_id: string }).user_id))
    .$if("plan_id" in by, (q) => q.where("l.plan_id", "=", (by as { plan_id: string }).plan_id))
    .$if(ranges !== undefined, (q) => q.where((eb) => inRanges(eb as unknown as DealsEb, ranges!)))
    .execute();
  return rows.map((r) => r.deal_id);
}

/** Pending deals closing within the ranges in another currency than some override plan (API.md §15). */
async function dealsConverting(db: Db, ranges: DateRange[]): Promise<string[]> {
  const rows = await db
    .selectFrom("deals as d")
    .select("d.id")
    .where("d.status", "=", "pending")
    .where((eb) => inRanges(eb, ranges))
    .where(sql<SqlBool>`EXISTS (SELECT 1 FROM comp_plans p WHERE p.kind = 'override' AND p.currency <> d.currency)`)
    .execute();
  return rows.map((r) => r.id);
}

/** Users holding an assignment to an override plan (this one, or any when omitted). */
async function overrideAssignees(db: Db, planId?: string): Promise<string[]> {
  const rows = await db
    .selectFrom("plan_assignments as a")
    .innerJoin("comp_plans as p", "p.id", "a.plan_id")
    .select("a.user_id")
    .distinct()
    .where("p.kind", "=", "override")
    .$if(planId !== undefined, (q) => q.where("p.id", "=", planId!))
    .execute();
  return rows.map((r) => r.user_id);
}

/** Whether anyone holds an override plan at all: without one, a deal's change pays no override. */
export async function anyOverrideAssignment(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom("plan_assignments as a")
    .innerJoin("comp_plans as p", "p.id", "a.plan_id")
    .select("a.id")
    .where("p.kind", "=", "override")
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

async function isOverridePlan(db: Db, planId: string): Promise<boolean> {
  const row = await db.selectFrom("comp_plans").select("kind").where("id", "=", planId).executeTakeFirst();
  return row?.kind === "override";
}

/**
 * The pending deals whose override lines the targets may change (a superset): a deal's own change; the
 * deals credited to a moved user or anyone ever below them; those below a user whose override
 * assignment changed, and that user's own override lines; those below an override plan's assignees, and
 * the plan's lines. A standard plan or a SPIFF moves no override line.
 */
export async function overrideDealIds(db: Db, targets: RecalcTarget[]): Promise<string[]> {
  const ids = new Set<string>();
  const add = (list: string[]) => {
    for (const id of list) ids.add(id);
  };
  for (const t of targets) {
    if (t.type === "deals") add(t.deal_ids);
    if (t.type === "overrides") add(await dealsCrediting(db, t.user_ids, t.ranges));
    if (t.type === "user") {
      add(await dealsWithOverrideLines(db, { user_id: t.user_id }, t.ranges));
      if ((await overrideAssignees(db)).includes(t.user_id))
        add(await dealsCrediting(db, await everBelow(db, [t.user_id]), t.ranges));
    }
    if (t.type === "rates" && (await anyOverrideAssignment(db))) add(await dealsConverting(db, t.ranges));
    if (t.type === "plan" && (await isOverridePlan(db, t.plan_id))) {
      add(await dealsWithOverrideLines(db, { plan_id: t.plan_id }));
      add(await dealsCrediting(db, await everBelow(db, await overrideAssignees(db, t.plan_id))));
    }
  }
  return [...ids].sort();
}

export interface OverrideDeal extends DealCols {
  splits: { user_id: string; percent: string }[];
  /** As stored: the pairs its override lines found no usable rate for (null: none). */
  override_fx_missing: FxMissing[] | null;
}

/** These deals (pending ones only) with their splits, in id order. */
export async function loadOverrideDeals(db: Db, dealIds: string[]): Promise<OverrideDeal[]> {
  if (dealIds.length === 0) return [];
  const deals = await db
    .selectFrom("deals")
    .select(["id", "arr_amount", "currency", "deal_type", "close_date", "created_at", "status", "override_fx_missing"])
    .where(anyOf("id", dealIds))
    .where("status", "=", "pending")
    .orderBy("id")
    .execute();
  if (deals.length === 0) return [];
  const splits = await db
    .selectFrom("deal_splits")
    .select(["deal_id", "user_id", "percent"])
    .where(
      anyOf(
        "deal_id",
        deals.map((d) => d.id),
      ),
    )
    .orderBy("deal_id")
    .orderBy("user_id")
    .execute();
  const byDeal = new Map<string, { user_id: string; percent: string }[]>();
  for (const s of splits) {
    const list = byDeal.get(s.deal_id) ?? [];
    list.push({ user_id: s.user_id, percent: s.percent });
    byDeal.set(s.deal_id, list);
  }
  return deals.map((d) => ({ ...d, splits: byDeal.get(d.id) ?? [] }));
}

/** The reporting lines of these users and of everyone above them, up to the deepest override level (one statement). */
export async function loadReportingChains(db: Db, users: string[]): Promise<Map<string, ReportingLineInput[]>> {
  const lines = new Map<string, ReportingLineInput[]>();
  if (users.length === 0) return lines;
  const { rows } = await sql<ReportingLineInput>`
    WITH RECURSIVE chain (user_id, depth) AS (
      SELECT u, 0 FROM unnest(${[...new Set(users)]}::text[]) AS x(u)
      UNION
      SELECT r.manager_id, c.depth + 1
      FROM chain c JOIN reporting_lines r ON r.user_id = c.user_id
      WHERE r.manager_id IS NOT NULL AND c.depth < ${MAX_OVERRIDE_DEPTH}
    )
    SELECT r.user_id, r.manager_id, r.effective_from, r.effective_to
    FROM reporting_lines r
    WHERE r.user_id IN (SELECT user_id FROM chain)`.execute(db);
  for (const r of rows) {
    const list = lines.get(r.user_id) ?? [];
    list.push(r);
    lines.set(r.user_id, list);
  }
  return lines;
}

/** These plans' stored rows (their current version). */
export async function loadPlans(db: Db, planIds: string[]) {
  if (planIds.length === 0) return [];
  return db.selectFrom("comp_plans").selectAll().where(anyOf("id", planIds)).execute();
}

/** The override-plan assignments of these users. */
export async function loadOverrideAssignments(db: Db, users: string[]) {
  if (users.length === 0) return [];
  return db
    .selectFrom("plan_assignments as a")
    .innerJoin("comp_plans as p", "p.id", "a.plan_id")
    .selectAll("a")
    .where("p.kind", "=", "override")
    .where(anyOf("a.user_id", users))
    .execute();
}

/** The unlocked override lines of these deals (what the override pass may rewrite). */
export async function loadUnlockedOverrideLines(db: Db, dealIds: string[]): Promise<ExistingLine[]> {
  if (dealIds.length === 0) return [];
  const { rows } = await sql<ExistingLine>`
    SELECT l.id, l.deal_id, l.user_id, l.kind, l.plan_id, l.plan_version, l.spiff_id, l.period, l.amount, l.currency,
           l.status, l.explanation_digest
    FROM commission_lines l
    WHERE l.deal_id = ANY(${dealIds}::text[]) AND l.kind = 'override' AND NOT l.locked
      AND l.status IN ('pending', 'void')`.execute(db);
  return rows;
}

/** Row locks on these deals, in id order: two writers of one deal's override lines take turns. */
export async function lockDeals(db: Db, dealIds: string[]): Promise<void> {
  if (dealIds.length === 0) return;
  await sql`SELECT id FROM deals WHERE id = ANY(${dealIds}::text[]) ORDER BY id FOR UPDATE`.execute(db);
}
