import { lockForRecalc } from "../commissions/index.js";
import type { Tx } from "../context.js";
import { notFound } from "../errors.js";
import * as repo from "./assignments-repository.js";
import { lockPlanRecord, type PlanRecord } from "./repository.js";
import type { Assignment } from "./schema.js";

/** Locks in the global order (SPIFFs, plan, user, assignment) and returns the assignment and its plan. */
export async function lockExisting(tx: Tx, id: string): Promise<{ assignment: Assignment; plan: PlanRecord }> {
  await lockForRecalc(tx);
  const found = await repo.findAssignment(tx, id);
  if (!found) throw notFound("Plan assignment", id);
  const plan = await lockPlanRecord(tx, found.plan_id);
  await lockForRecalc(tx, { users: [found.user_id] });
  const assignment = await repo.lockAssignment(tx, id);
  if (!assignment || !plan) throw notFound("Plan assignment", id);
  return { assignment, plan };
}
