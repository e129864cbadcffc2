import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { AppError } from "../errors.js";
import { lockExisting } from "./lock.js";
import { insertNewKey } from "./new-key.js";
import * as repo from "./repository.js";
import type { CreatedApiKey } from "./schema.js";

/**
 * A new key with the same name and scope (API.md §1); the old one keeps working for the grace period
 * (never longer than it would have anyway). MCP access is not inherited: the owner grants it again.
 */
export async function rotateKey(ctx: Ctx, id: string, gracePeriodSeconds: number): Promise<CreatedApiKey> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    const old = await lockExisting(tx, id);
    if (old.revoked_at) throw new AppError("conflict", `API key ${id} is revoked; create a new key instead`);
    if (old.expires_at && new Date(old.expires_at) <= ctx.now) {
      throw new AppError("conflict", `API key ${id} expired at ${old.expires_at}; create a new key instead`);
    }
    const graceEnd = new Date(ctx.now.getTime() + gracePeriodSeconds * 1000);
    const expiresAt = old.expires_at && new Date(old.expires_at) < graceEnd ? new Date(old.expires_at) : graceEnd;
    const retired = await repo.updateKey(tx, id, { expires_at: expiresAt });
    const created = await insertNewKey(tx, ctx, { name: old.name, scope: old.scope, expiresAt: null, replaces: id });
    await audit(tx, ctx, {
      action: "api_key.rotate",
      resource: "api_key",
      resourceId: id,
      before: old,
      after: retired,
    });
    await audit(tx, ctx, { action: "api_key.create", resource: "api_key", resourceId: created.id, after: created });
    return created;
  });
}
