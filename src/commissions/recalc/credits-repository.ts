import { type Expression, type ExpressionBuilder, type SqlBool, sql } from "kysely";
import { isEmbedded } from "../../db/embedded.js";
import type { DB, Db } from "../../db/schema.js";
import { anyOf } from "../../db/sql.js";
import { creditOf, toEngineDeal } from "./inputs.js";
import type { CreditRow, DateRange, RecalcTarget } from "./types.js";

/** Reads of the pending credits a recalculation's targets reach: loaded, counted, or grouped by user. */

type SplitsEb = ExpressionBuilder<DB & { s: DB["deal_splits"]; d: DB["deals"] }, "s" | "d">;

function inRanges(eb: SplitsEb, ranges: DateRange[]): Expression<SqlBool> {
  return eb.or(
    ranges.map((r) =>
      r.to === null
        ? eb("s.close_date", ">=", r.from)
        : eb.and([eb("s.close_date", ">=", r.from), eb("s.close_date", "<=", r.to)]),
    ),
  );
}

/**
 * `coarse`: a superset that skips the per-credit plan match (cheap; for sizing a job's batches).
 * `byUsers`: the query is already restricted to a list of users (a job batch).
 */
function targetCondition(eb: SplitsEb, target: RecalcTarget, coarse: boolean, byUsers: boolean): Expression<SqlBool> {
  switch (target.type) {
    case "deals":
      return target.deal_ids.length ? anyOf("s.deal_id", target.deal_ids) : eb.val(false);
    case "user":
      return eb.and([eb("s.user_id", "=", target.user_id), inRanges(eb, target.ranges)]);
    case "spiff":
      return inRanges(eb, target.ranges);
    case "overrides":
      // Only override lines move: `planOverrides` reads their deals; no credit is re-matched.
      return eb.val(false);
    case "rates":
      return eb.and([inRanges(eb, target.ranges), converts]);
    case "plan":
      // The user prefilter lets the planner walk deal_splits by user (deal_splits_user_idx) instead of
      // testing both EXISTS against every pending credit in the database. A job batch already names its
      // users, and the prefilter would cost it a read of every line of the plan.
      if (coarse) return inPlanUsers(eb, target.plan_id);
      if (byUsers) return planMatch(eb, target.plan_id);
      return eb.and([inPlanUsers(eb, target.plan_id), planMatch(eb, target.plan_id)]);
  }
}

/** The deal `d` is in another currency than some plan or SPIFF (its lines may convert: API.md §15). */
const converts = sql<SqlBool>`EXISTS (SELECT 1 FROM comp_plans p WHERE p.currency <> d.currency
  UNION ALL SELECT 1 FROM spiffs x WHERE x.currency <> d.currency)`;

/** The credit's user is assigned to the plan or has a line of it (at any date). */
function inPlanUsers(eb: SplitsEb, planId: string): Expression<SqlBool> {
  return eb(
    "s.user_id",
    "in",
    eb
      .selectFrom("plan_assignments as pa")
      .select("pa.user_id")
      .where("pa.plan_id", "=", planId)
      .union(
        eb
          .selectFrom("commission_lines as pl")
          .select("pl.user_id")
          .where("pl.plan_id", "=", planId)
          .where("pl.kind", "=", "plan"),
      ),
  );
}

/** The credit falls in an assignment to the plan, or already has a line of it. */
function planMatch(eb: SplitsEb, planId: string): Expression<SqlBool> {
  return eb.or([
    eb.exists(
      eb
        .selectFrom("plan_assignments as a")
        .select("a.id")
        .whereRef("a.user_id", "=", "s.user_id")
        .where("a.plan_id", "=", planId)
        .whereRef("a.effective_from", "<=", "s.close_date")
        .where((w) => w.or([w("a.effective_to", "is", null), w("a.effective_to", ">=", w.ref("s.close_date"))])),
    ),
    eb.exists(
      eb
        .selectFrom("commission_lines as l")
        .select("l.id")
        .whereRef("l.deal_id", "=", "s.deal_id")
        .whereRef("l.user_id", "=", "s.user_id")
        .where("l.kind", "=", "plan")
        .where("l.plan_id", "=", planId),
    ),
  ]);
}

function pendingCredits(db: Db, targets: RecalcTarget[], users: string[] | undefined, coarse = false) {
  return db
    .selectFrom("deal_splits as s")
    .innerJoin("deals as d", "d.id", "s.deal_id")
    .where("d.status", "=", "pending")
    .where((eb) => eb.or(targets.map((t) => targetCondition(eb, t, coarse, users !== undefined))))
    .$if(users !== undefined, (q) => q.where(anyOf("s.user_id", users!)));
}

/**
 * Users per statement of a plan-wide read on the embedded database (PostgreSQL reads them in one). As
 * one statement, counting a plan's credits in a database of 20,000 deals took 0.5 s of PGlite: its
 * planner matches every credit to the plan; a few users' statements each walk their own index range
 * (an impact preview 1.49–1.55 s → 0.72–0.90 s), and between them other requests' statements get the
 * only connection (outside a transaction).
 *
 * PostgreSQL gets the users as a list too. With the users as a subquery (the plan's assignments ∪ the
 * users of its lines) its planner cannot know they are a few hundred: at 2,000,000 deals it took the union
 * of 44,000 lines for 45,000 users and matched every pending credit in the database to the plan
 * instead (a plan's credit count 4.7–5.8 s; bench/scale.mjs, the impact preview).
 */
const USERS_PER_WIDE_READ = 2;

/**
 * Every user whose pending credits the targets can reach (a superset), or undefined when one statement
 * reads them quickly: no plan target (a plan's match is the costly part: two EXISTS per credit), or a
 * SPIFF target, which can reach anyone.
 */
async function reachableUsers(db: Db, targets: RecalcTarget[]): Promise<string[] | undefined> {
  if (!targets.some((t) => t.type === "plan")) return undefined;
  if (targets.some((t) => t.type === "spiff" || t.type === "rates")) return undefined;
  const users = new Set<string>();
  for (const t of targets) {
    if (t.type === "user") users.add(t.user_id);
    if (t.type === "plan") {
      const rows = await db
        .selectFrom("plan_assignments")
        .select("user_id")
        .where("plan_id", "=", t.plan_id)
        .union(
          db
            .selectFrom("commission_lines")
            .select("user_id")
            .where("plan_id", "=", t.plan_id)
            .where("kind", "=", "plan"),
        )
        .execute();
      for (const r of rows) users.add(r.user_id);
    }
    if (t.type === "deals" && t.deal_ids.length > 0) {
      const rows = await db
        .selectFrom("deal_splits")
        .select("user_id")
        .distinct()
        .where(anyOf("deal_id", t.deal_ids))
        .execute();
      for (const r of rows) users.add(r.user_id);
    }
  }
  return [...users].sort();
}

/**
 * `read` over the targets' credits: when a plan is among the targets and no users are given, by the list of
 * users it can reach, in statements of a few users each on the embedded database (see
 * USERS_PER_WIDE_READ), in one on PostgreSQL. One statement as asked otherwise: a job batch's users are few
 * and read inside its transaction, where nobody else's statement could run in between anyway.
 */
async function perUsers<T>(
  db: Db,
  targets: RecalcTarget[],
  users: string[] | undefined,
  read: (users: string[] | undefined) => Promise<T[]>,
): Promise<T[]> {
  const wide = users === undefined ? await reachableUsers(db, targets) : undefined;
  if (wide === undefined) return read(users);
  if (!isEmbedded() || wide.length <= USERS_PER_WIDE_READ) return read(wide);
  const out: T[] = [];
  for (let i = 0; i < wide.length; i += USERS_PER_WIDE_READ) {
    for (const row of await read(wide.slice(i, i + USERS_PER_WIDE_READ))) out.push(row);
  }
  return out;
}

/** The pending credits the targets reach (optionally only these users'), with their deals. */
export async function loadCredits(db: Db, targets: RecalcTarget[], users?: string[]): Promise<CreditRow[]> {
  if (targets.length === 0) return [];
  const rows = await perUsers(db, targets, users, (some) =>
    pendingCredits(db, targets, some)
      .select(["d.id", "d.arr_amount", "d.currency", "d.deal_type", "d.close_date", "d.created_at", "d.status"])
      .select(["s.user_id", "s.percent", "s.no_plan_reason", "s.fx_missing", "d.fx_missing as deal_fx_missing"])
      .execute(),
  );
  return rows.map((r) => {
    const deal = toEngineDeal(r);
    return {
      deal,
      user_id: r.user_id,
      percent: r.percent,
      credit: creditOf(deal, r.user_id, r.percent),
      no_plan_reason: r.no_plan_reason,
      fx_missing: r.fx_missing,
      deal_fx_missing: r.deal_fx_missing,
    };
  });
}

/** How many pending credits the targets reach: the size test for running inline or as a job. */
export async function countCredits(db: Db, targets: RecalcTarget[]): Promise<number> {
  if (targets.length === 0) return 0;
  const counts = await perUsers(db, targets, undefined, async (some) => [
    await pendingCredits(db, targets, some)
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return counts.reduce((n, row) => n + Number(row.n), 0);
}

export interface AffectedUser {
  user_id: string;
  /** Pending credits of this user the targets may reach: an upper bound, to size a job's batches. */
  credits: number;
}

/** Users whose credits or buckets the targets may reach (a superset), sorted by id: the job's batching order. */
export async function affectedUsers(db: Db, targets: RecalcTarget[]): Promise<AffectedUser[]> {
  const credits = new Map<string, number>();
  if (targets.length > 0) {
    const rows = await pendingCredits(db, targets, undefined, true)
      .select(["s.user_id", (eb) => eb.fn.countAll<string>().as("n")])
      .groupBy("s.user_id")
      .execute();
    for (const r of rows) credits.set(r.user_id, Number(r.n));
  }
  for (const t of targets)
    if (t.type === "deals") for (const b of t.buckets ?? []) credits.set(b.user_id, credits.get(b.user_id) ?? 0);
  return [...credits]
    .map(([user_id, n]) => ({ user_id, credits: n }))
    .sort((a, b) => (a.user_id < b.user_id ? -1 : a.user_id > b.user_id ? 1 : 0));
}
