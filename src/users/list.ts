import { seenUsers } from "../access/index.js";
import { type Ctx, requireScope } from "../context.js";
import { offsetOf, type Page } from "../http/pagination.js";
import * as repo from "./repository.js";
import type { ListUsersQuery, User } from "./schema.js";

export async function listUsers(ctx: Ctx, query: ListUsersQuery): Promise<Page<User>> {
  requireScope(ctx, "read");
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listUsers(ctx.db, query, seenUsers(ctx), limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}
