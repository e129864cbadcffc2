import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { lockExisting } from "./lock.js";
import * as repo from "./repository.js";
import type { ApiKey } from "./schema.js";

/** Takes effect on the next request: authentication reads the key row every time. Repeating it is a no-op. */
export async function revokeKey(ctx: Ctx, id: string): Promise<ApiKey> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    const before = await lockExisting(tx, id);
    if (before.revoked_at) return before;
    const after = await repo.updateKey(tx, id, { revoked_at: ctx.now });
    await audit(tx, ctx, { action: "api_key.revoke", resource: "api_key", resourceId: id, before, after });
    return after;
  });
}
