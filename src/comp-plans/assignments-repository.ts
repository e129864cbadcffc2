import type { Insertable, Selectable, Updateable } from "kysely";
import { ofVisibleUsers, type Visible } from "../access/index.js";
import type { Tx } from "../context.js";
import type { Db, PlanAssignmentsTable } from "../db/schema.js";
import type { PlanKind } from "../enums.js";
import { toIso } from "../http/date-fields.js";
import type { Assignment } from "./schema.js";

type Row = Selectable<PlanAssignmentsTable>;

export function toAssignment(row: Row): Assignment {
  return {
    id: row.id,
    plan_id: row.plan_id,
    user_id: row.user_id,
    effective_from: row.effective_from,
    effective_to: row.effective_to,
    quota_override: row.quota_override === null ? null : Number(row.quota_override),
    created_at: toIso(row.created_at)!,
    updated_at: toIso(row.updated_at)!,
  };
}

export async function insertAssignment(tx: Tx, row: Insertable<PlanAssignmentsTable>): Promise<Assignment> {
  return toAssignment(await tx.insertInto("plan_assignments").values(row).returningAll().executeTakeFirstOrThrow());
}

export async function updateAssignment(
  tx: Tx,
  id: string,
  changes: Updateable<PlanAssignmentsTable>,
): Promise<Assignment> {
  return toAssignment(
    await tx.updateTable("plan_assignments").set(changes).where("id", "=", id).returningAll().executeTakeFirstOrThrow(),
  );
}

export async function deleteAssignment(tx: Tx, id: string): Promise<void> {
  await tx.deleteFrom("plan_assignments").where("id", "=", id).execute();
}

export async function findAssignment(db: Db, id: string): Promise<Assignment | undefined> {
  const row = await db.selectFrom("plan_assignments").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toAssignment(row);
}

export async function lockAssignment(tx: Tx, id: string): Promise<Assignment | undefined> {
  const row = await tx.selectFrom("plan_assignments").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
  return row && toAssignment(row);
}

/**
 * The user's other assignment to a plan of this kind in force on some day of [from, to] (to null =
 * open-ended), if any: a user has one assignment in force per plan kind on any date (API.md §16).
 */
export async function overlapping(
  tx: Tx,
  userId: string,
  kind: PlanKind,
  from: string,
  to: string | null,
  exceptId: string | null,
): Promise<Assignment | undefined> {
  let query = tx
    .selectFrom("plan_assignments as a")
    .innerJoin("comp_plans as p", "p.id", "a.plan_id")
    .selectAll("a")
    .where("a.user_id", "=", userId)
    .where("p.kind", "=", kind)
    .where((eb) => eb.or([eb("a.effective_to", "is", null), eb("a.effective_to", ">=", from)]));
  if (to !== null) query = query.where("a.effective_from", "<=", to);
  if (exceptId) query = query.where("a.id", "<>", exceptId);
  const row = await query.orderBy("a.effective_from").limit(1).executeTakeFirst();
  return row && toAssignment(row);
}

/** Users assigned to the plan (any dates): whose lines a plan edit can move. */
export async function usersAssignedTo(db: Db, planId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("plan_assignments")
    .select("user_id")
    .distinct()
    .where("plan_id", "=", planId)
    .execute();
  return rows.map((r) => r.user_id);
}

/** The plan's assignments that override its quota (their quotas are in the plan's currency). */
export async function quotaOverridesOf(db: Db, planId: string): Promise<{ id: string; quota_override: string }[]> {
  const rows = await db
    .selectFrom("plan_assignments")
    .select(["id", "quota_override"])
    .where("plan_id", "=", planId)
    .where("quota_override", "is not", null)
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ id: r.id, quota_override: r.quota_override! }));
}

/** Assignments, newest first, of one plan or of every plan (the caller checked the plan is seen). */
export async function listAssignments(
  db: Db,
  filter: { plan_id?: string | undefined; user_id?: string | undefined },
  visible: Visible,
  limit: number,
  offset: number,
) {
  let query = db.selectFrom("plan_assignments");
  if (filter.plan_id) query = query.where("plan_id", "=", filter.plan_id);
  if (visible) query = query.where(ofVisibleUsers("user_id", visible));
  if (filter.user_id) query = query.where("user_id", "=", filter.user_id);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toAssignment), total: Number(count.n) };
}
