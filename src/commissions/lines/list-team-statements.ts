import type { Ctx } from "../../context.js";
import type { Page } from "../../http/pagination.js";
import { listUsers } from "../../users/index.js";
import type { TeamStatement, TeamStatementsQuery } from "../schema.js";
import * as repo from "./repository.js";
import { statementNumbers } from "./statement.js";

/**
 * A page of the people GET /users lists (same visibility, filters and order), each with the numbers
 * of their statement for `period`: the people, their lines and the plans' terms are one read each,
 * whatever the page's size.
 */
export async function listTeamStatements(ctx: Ctx, query: TeamStatementsQuery): Promise<Page<TeamStatement>> {
  const { period, ...usersQuery } = query;
  const people = await listUsers(ctx, usersQuery);
  const lines = await repo.statementLinesOfUsers(
    ctx.db,
    people.data.map((u) => u.id),
    period,
  );
  const numbers = await statementNumbers(
    ctx.db,
    people.data.map((u) => lines.get(u.id) ?? []),
  );
  return {
    data: people.data.map((u, i) => ({
      user: { id: u.id, name: u.name, role: u.role, manager_id: u.manager_id, active: u.active },
      period,
      ...numbers[i]!,
    })),
    meta: people.meta,
  };
}
