import { type Ctx, requireScope } from "../context.js";
import { notFound } from "../errors.js";
import * as repo from "./repository.js";
import type { Spiff } from "./schema.js";

export async function getSpiff(ctx: Ctx, id: string): Promise<Spiff> {
  requireScope(ctx, "read");
  const spiff = await repo.findSpiff(ctx.db, id);
  if (!spiff) throw notFound("SPIFF", id);
  return repo.toSpiff(spiff);
}
