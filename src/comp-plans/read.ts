import { visibleUserIds } from "../access/index.js";
import { type Ctx, requireScope } from "../context.js";
import { notFound } from "../errors.js";
import * as repo from "./repository.js";
import type { CompPlan } from "./schema.js";

export async function getPlan(ctx: Ctx, id: string): Promise<CompPlan> {
  requireScope(ctx, "read");
  const plan = await repo.findPlanRecord(ctx.db, id);
  if (!plan || !(await repo.planSeen(ctx.db, id, await visibleUserIds(ctx)))) throw notFound("Comp plan", id);
  return repo.toPlan(plan);
}
