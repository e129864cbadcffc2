import { audit } from "../audit/record.js";
import { type Ctx, requireOwner, requireScope, type Scope, type Tx, withTransaction } from "../context.js";
import { AppError, notFound } from "../errors.js";
import type { Page, PageQuery } from "../http/pagination.js";
import { offsetOf } from "../http/pagination.js";
import { newId } from "../ids.js";
import * as repo from "./repository.js";
import type { ApiKey, CreateApiKeyBody, CreatedApiKey } from "./schema.js";
import { displayPrefix, generateRawKey, hashKey } from "./secret.js";

async function insertNewKey(
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

export async function listKeys(ctx: Ctx, query: PageQuery): Promise<Page<ApiKey>> {
  requireScope(ctx, "admin");
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listKeys(ctx.db, limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}

export async function getKey(ctx: Ctx, id: string): Promise<ApiKey> {
  requireScope(ctx, "admin");
  const key = await repo.findKey(ctx.db, id);
  if (!key) throw notFound("API key", id);
  return key;
}

async function lockExisting(tx: Tx, id: string): Promise<ApiKey> {
  const key = await repo.lockKey(tx, id);
  if (!key) throw notFound("API key", id);
  return key;
}

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

/** Owner only (the CLI): how far an assistant using this key may go through MCP (API.md §9). */
export async function setMcpAccess(ctx: Ctx, id: string, level: Scope): Promise<ApiKey> {
  requireOwner(ctx, "Granting MCP access");
  return withTransaction(ctx, async (tx) => {
    const before = await lockExisting(tx, id);
    const after = await repo.updateKey(tx, id, { mcp_access: level });
    await audit(tx, ctx, { action: "api_key.mcp_access", resource: "api_key", resourceId: id, before, after });
    return after;
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
