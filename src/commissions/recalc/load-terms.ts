import type { Db } from "../../db/schema.js";
import { anyOf } from "../../db/sql.js";
import type { AssignmentInput, PlanInput, SpiffInput } from "../calculate.js";
import type { PlanContext } from "./types.js";

/** The terms a recalculation applies: the users' assignments, their plans, the SPIFFs in force. */

type PlanRow = Omit<PlanInput, "tiers"> & { tiers: PlanInput["tiers"] };

export function toPlanInput(row: PlanRow): PlanInput {
  return {
    id: row.id,
    version: row.version,
    status: row.status,
    currency: row.currency,
    period: row.period,
    quota: row.quota,
    base_rate: row.base_rate,
    tiers: row.tiers && row.tiers.length > 0 ? row.tiers : null,
    deal_type_multipliers: row.deal_type_multipliers,
    min_deal_amount: row.min_deal_amount,
    cap_per_period: row.cap_per_period,
    effective_from: row.effective_from,
    effective_to: row.effective_to,
  };
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
  const rows = await db.selectFrom("plan_assignments").selectAll().where(anyOf("user_id", userIds)).execute();
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

/** A `spiffs` row (any extra columns dropped) as the engine takes it. */
export function toSpiffInput(r: SpiffInput): SpiffInput {
  return {
    id: r.id,
    name: r.name,
    currency: r.currency,
    starts_on: r.starts_on,
    ends_on: r.ends_on,
    active: r.active,
    criteria: r.criteria,
    payout: r.payout,
  };
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
