import type { Ctx, Scope, Tx } from "../context.js";
import { newId } from "../ids.js";
import * as repo from "./repository.js";
import type { CreatedApiKey } from "./schema.js";
import { displayPrefix, generateRawKey, hashKey } from "./secret.js";

export async function insertNewKey(
  tx: Tx,
  ctx: Ctx,
  fields: { name: string; scope: Scope; expiresAt: Date | null; replaces: string | null },
): Promise<CreatedApiKey> {
  const raw = generateRawKey(ctx.env);
  const created = await repo.insertKey(tx, {
    id: newId("key", ctx.now.getTime()),
    name: fields.name,
    scope: fields.scope,
    environment: ctx.env,
    key_hash: hashKey(raw),
    key_prefix: displayPrefix(raw),
    replaces: fields.replaces,
    created_at: ctx.now,
    expires_at: fields.expiresAt,
  });
  return { ...created, key: raw };
}
