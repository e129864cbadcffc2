import type { Ctx } from "../../context.js";
import { validationError } from "../../errors.js";
import type { Page } from "../../http/pagination.js";
import { listUsers } from "../../users/index.js";
import { periodOf } from "../engine/index.js";
import type { TeamStatement, TeamStatementsQuery } from "../schema.js";
import { planPeriodOn } from "./plan-period-on.js";
import { statementNumbers } from "./statement.js";
import type { StatementFigures } from "./statement-figures.js";
import { statementFiguresOfUsers } from "./statement-figures-repository.js";
import { type PlanSpan, planSpans } from "./statement-plans-repository.js";

/**
 * A page of the people GET /users lists (same visibility, filters and order), each with the numbers
 * of their statement for `period`, or for their own plan's period on the date `on` (default today). Three
 * statements a page whatever its size: the people with their count (a manager's subtree read inside it),
 * their lines' figures, and the plan versions with the people's assignments (on a date, the assignments
 * come before the figures, which need each person's period from them).
 */
export async function listTeamStatements(ctx: Ctx, query: TeamStatementsQuery): Promise<Page<TeamStatement>> {
  const { period, on: date, currency, ...usersQuery } = query;
  if (period !== undefined && date !== undefined)
    throw validationError("period", "give either period (the same for everyone) or on (a date), not both");
  const on = period === undefined ? (date ?? ctx.now.toISOString().slice(0, 10)) : undefined;
  const people = await listUsers(ctx, usersQuery);
  const ids = people.data.map((u) => u.id);
  const periods = new Map<string, string>();
  let spans: Map<string, PlanSpan[]> | undefined;
  if (on !== undefined) {
    spans = await planSpans(ctx.db, ids);
    for (const id of ids) periods.set(id, periodOf(planPeriodOn(spans.get(id) ?? [], on) ?? "quarter", on));
  } else for (const id of ids) periods.set(id, period!);
  const figures = await figuresByPeriod(ctx, periods);
  const numbers = await statementNumbers(
    ctx.db,
    ids.map((id) => ({ userId: id, period: periods.get(id)!, figures: figures.get(id) ?? NO_FIGURES, currency })),
    spans && { spans },
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
