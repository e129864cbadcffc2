import { audit } from "../audit/record.js";
import { lockForRecalc } from "../commissions/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { notFound } from "../errors.js";
import { recalcWindows } from "./records.js";
import * as repo from "./repository.js";

/** Returns the recalculation job id, if the change went to the background. */
export async function deleteSpiff(ctx: Ctx, id: string): Promise<string | null> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    await lockForRecalc(tx, { spiffs: "exclusive" });
    const before = await repo.lockSpiff(tx, id);
    if (!before) throw notFound("SPIFF", id);
    await repo.deleteSpiff(tx, id);
    await audit(tx, ctx, { action: "spiff.delete", resource: "spiff", resourceId: id, before: repo.toSpiff(before) });
    return recalcWindows(tx, ctx, [before]);
  });
}
