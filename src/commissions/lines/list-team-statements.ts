import type { Ctx } from "../../context.js";
import { validationError } from "../../errors.js";
import type { Page } from "../../http/pagination.js";
import { listUsers } from "../../users/index.js";
import { periodOf } from "../engine/index.js";
import type { TeamStatement, TeamStatementsQuery } from "../schema.js";
import { statementNumbers } from "./statement.js";
import type { StatementFigures } from "./statement-figures.js";
import { statementFiguresOfUsers } from "./statement-figures-repository.js";
import * as repo from "./statement-repository.js";

/**
 * A page of the people GET /users lists (same visibility, filters and order), each with the numbers
 * of their statement for `period`, or for their own plan's period on the date `on` (default today): the people, their
 * plans, their lines and the plans' terms are one read each, whatever the page's size.
 */
export async function listTeamStatements(ctx: Ctx, query: TeamStatementsQuery): Promise<Page<TeamStatement>> {
  const { period, on: date, currency, ...usersQuery } = query;
  if (period !== undefined && date !== undefined)
    throw validationError("period", "give either period (the same for everyone) or on (a date), not both");
  const on = period === undefined ? (date ?? ctx.now.toISOString().slice(0, 10)) : undefined;
  const people = await listUsers(ctx, usersQuery);
  const ids = people.data.map((u) => u.id);
  const periods = new Map<string, string>();
  if (on !== undefined) {
    const kinds = await repo.planPeriodKindsOn(ctx.db, ids, on);
    for (const id of ids) periods.set(id, periodOf(kinds.get(id) ?? "quarter", on));
  } else for (const id of ids) periods.set(id, period!);
  const figures = await figuresByPeriod(ctx, periods);
  const numbers = await statementNumbers(
    ctx.db,
    ids.map((id) => ({ userId: id, period: periods.get(id)!, figures: figures.get(id) ?? NO_FIGURES, currency })),
  );
  return {
    data: people.data.map((u, i) => ({
      user: { id: u.id, name: u.name, role: u.role, manager_id: u.manager_id, active: u.active },
      period: periods.get(u.id)!,
      ...numbers[i]!,
    })),
    meta: people.meta,
  };
}

const NO_FIGURES: StatementFigures = { groups: [], deals: 0 };

/** Each person's lines of their period, summed as their numbers need them: one read per distinct period (at most three on one date). */
async function figuresByPeriod(ctx: Ctx, periods: Map<string, string>): Promise<Map<string, StatementFigures>> {
  const byPeriod = new Map<string, string[]>();
  for (const [id, period] of periods) byPeriod.set(period, [...(byPeriod.get(period) ?? []), id]);
  const out = new Map<string, StatementFigures>();
  for (const [period, ids] of byPeriod)
    for (const [id, figures] of await statementFiguresOfUsers(ctx.db, ids, period)) out.set(id, figures);
  return out;
}
