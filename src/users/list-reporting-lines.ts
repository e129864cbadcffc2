import { seesUser } from "../access/index.js";
import { type Ctx, requireScope } from "../context.js";
import { notFound } from "../errors.js";
import { linesOf } from "./reporting-lines-repository.js";
import * as repo from "./repository.js";
import type { ReportingLines } from "./schema.js";

/** GET /users/{id}/reporting-lines (API.md §16): whoever sees the user (GET /users/{id}) reads their history. */
export async function listReportingLines(ctx: Ctx, id: string): Promise<ReportingLines> {
  requireScope(ctx, "read");
  const user = await repo.findUser(ctx.db, id);
  if (!user || !(await seesUser(ctx, id))) throw notFound("User", id);
  return { data: await linesOf(ctx.db, id) };
}
