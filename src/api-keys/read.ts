import { type Ctx, requireScope } from "../context.js";
import { notFound } from "../errors.js";
import * as repo from "./repository.js";
import type { ApiKey } from "./schema.js";

export async function getKey(ctx: Ctx, id: string): Promise<ApiKey> {
  requireScope(ctx, "admin");
  const key = await repo.findKey(ctx.db, id);
  if (!key) throw notFound("API key", id);
  return key;
}
