import { seesUser } from "../access/index.js";
import { type Ctx, requireScope } from "../context.js";
import { notFound } from "../errors.js";
import * as repo from "./repository.js";
import type { User } from "./schema.js";

export async function getUser(ctx: Ctx, id: string): Promise<User> {
  requireScope(ctx, "read");
  const user = await repo.findUser(ctx.db, id);
  if (!user || !(await seesUser(ctx, id))) throw notFound("User", id);
  return user;
}
