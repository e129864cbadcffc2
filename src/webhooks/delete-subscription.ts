import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { notFound } from "../errors.js";
import * as repo from "./repository.js";
import { RESOURCE } from "./subscription-rules.js";

export async function deleteSubscription(ctx: Ctx, id: string): Promise<void> {
  requireScope(ctx, "admin");
  await withTransaction(ctx, async (tx) => {
    const before = (await repo.lockSubscription(tx, id))?.subscription;
    if (!before) throw notFound("Webhook subscription", id);
    await repo.deleteSubscription(tx, id);
    await audit(tx, ctx, { action: `${RESOURCE}.delete`, resource: RESOURCE, resourceId: id, before });
  });
}
