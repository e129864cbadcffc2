import { audit } from "../audit/record.js";
import { type Ctx, requireScope, type Tx, withTransaction } from "../context.js";
import { AppError } from "../errors.js";
import { insertNewKey } from "./new-key.js";
import * as repo from "./repository.js";
import type { CreateApiKeyBody, CreatedApiKey } from "./schema.js";

export async function createKey(ctx: Ctx, input: CreateApiKeyBody): Promise<CreatedApiKey> {
  requireScope(ctx, "admin");
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt <= ctx.now) {
    throw new AppError("validation_error", "expires_at must be in the future", [
      { param: "expires_at", message: "must be in the future" },
    ]);
  }
  return withTransaction(ctx, async (tx) => {
    const created = await insertNewKey(tx, ctx, { name: input.name, scope: input.scope, expiresAt, replaces: null });
    await audit(tx, ctx, { action: "api_key.create", resource: "api_key", resourceId: created.id, after: created });
    return created;
  });
}

/**
 * On the first start of a deployment with no keys at all, one admin key named `bootstrap`. Runs under
 * the migration lock (in its transaction), so processes starting together create exactly one.
 */
export async function ensureBootstrapKey(tx: Tx, ctx: Ctx): Promise<CreatedApiKey | null> {
  if ((await repo.countKeys(tx)) > 0) return null;
  const txCtx = { ...ctx, db: tx };
  const created = await insertNewKey(tx, txCtx, { name: "bootstrap", scope: "admin", expiresAt: null, replaces: null });
  await audit(tx, txCtx, { action: "api_key.create", resource: "api_key", resourceId: created.id, after: created });
  return created;
}
