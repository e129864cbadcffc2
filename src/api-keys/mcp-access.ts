import { audit } from "../audit/record.js";
import { type Ctx, requireOwner, type Scope, withTransaction } from "../context.js";
import { lockExisting } from "./lock.js";
import * as repo from "./repository.js";
import type { ApiKey } from "./schema.js";

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
