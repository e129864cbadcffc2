import { seesUser } from "../access/index.js";
import { type Ctx, requireScope } from "../context.js";
import type { Db } from "../db/schema.js";
import { notFound } from "../errors.js";
import { drawsOf, todayOf } from "./records.js";
import * as repo from "./repository.js";
import type { Draw } from "./schema.js";

/** GET /draws/{id}: readers see every draw; a rep their own, a manager their subtree's (else 404, API.md §11). */
export async function getDraw(ctx: Ctx, id: string): Promise<Draw> {
  requireScope(ctx, "read");
  const row = await repo.findDraw(ctx.db, id);
  if (!row || !(await seesUser(ctx, row.user_id))) throw notFound("Draw", id);
  return drawOf(ctx.db, row, ctx.now);
}

export async function drawOf(db: Db, row: repo.DrawRow, now: Date): Promise<Draw> {
  return (await drawsOf(db, [row], todayOf(now)))[0]!;
}
