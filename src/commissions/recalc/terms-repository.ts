import type { Db } from "../../db/schema.js";
import { anyOf } from "../../db/sql.js";
import type { AssignmentInput, PlanInput, SpiffInput } from "../engine/index.js";
import { toPlanInput, toSpiffInput } from "./inputs.js";
import type { PlanContext } from "./types.js";

/** The terms a recalculation applies: the users' assignments, their plans, the SPIFFs in force. */

/** One plan as the engine takes it, or undefined when there is none with that id. */
export async function findPlanInput(db: Db, planId: string): Promise<PlanInput | undefined> {
  const row = await db.selectFrom("comp_plans").selectAll().where("id", "=", planId).executeTakeFirst();
  return row && toPlanInput(row);
}

/** Every assignment of these users and the current version of each plan they name (or its stand-in from `plans`). */
export async function loadPlanContext(
  db: Db,
  userIds: string[],
  instead?: Map<string, PlanInput>,
): Promise<PlanContext> {
  const assignments = new Map<string, AssignmentInput[]>();
  const plans = new Map<string, PlanInput>();
  if (userIds.length === 0) return { assignments, plans };
  // A standard plan's credit never matches an override assignment (one of each may be in force, §16).
  const rows = await db
    .selectFrom("plan_assignments as a")
    .innerJoin("comp_plans as p", "p.id", "a.plan_id")
    .selectAll("a")
    .where(anyOf("a.user_id", userIds))
    .where("p.kind", "=", "standard")
    .execute();
  for (const a of rows) {
    const list = assignments.get(a.user_id) ?? [];
    list.push({ ...a, quota_override: a.quota_override });
    assignments.set(a.user_id, list);
  }
  const planIds = [...new Set(rows.map((a) => a.plan_id))];
  if (planIds.length > 0) {
    const planRows = await db.selectFrom("comp_plans").selectAll().where(anyOf("id", planIds)).execute();
    for (const p of planRows) plans.set(p.id, instead?.get(p.id) ?? toPlanInput(p));
  }
  return { assignments, plans };
}

/** Active SPIFFs whose window touches [from, to]. */
export async function loadSpiffs(db: Db, from: string, to: string): Promise<SpiffInput[]> {
  const rows = await db
    .selectFrom("spiffs")
    .selectAll()
    .where("active", "=", true)
    .where("starts_on", "<=", to)
    .where("ends_on", ">=", from)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map(toSpiffInput);
}
