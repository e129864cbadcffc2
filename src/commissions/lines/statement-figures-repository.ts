import { sql } from "kysely";
import type { Db } from "../../db/schema.js";
import { toIso } from "../../http/date-fields.js";
import { addRatios, parse, parseRatio } from "../../money/index.js";
import { type FigureGroup, NO_CREDIT, type StatementFigures } from "./statement-figures.js";

/**
 * Each user's non-void lines of one period summed as their numbers need them (`FigureGroup`s), and the
 * distinct deals of their plan lines, in one statement by the (user_id, period) index: a manager's
 * hundred people hold thousands of lines a quarter, and their numbers need a few dozen rows. A person
 * has at most one plan line per deal (`commission_lines_plan_key`), so their plan lines' deals are the
 * groups' counts summed: no second grouping of the same lines. Converted
 * credits ("n/d", API.md §15) come back as they are, to be summed exactly beside the decimal ones.
 * Every column read here is in that index (migration 024: the credit and quota are stored beside the
 * explanation), so it is an index-only scan: no line's heap page is read where the visibility map is current.
 */
export async function statementFiguresOfUsers(
  db: Db,
  userIds: readonly string[],
  period: string,
): Promise<Map<string, StatementFigures>> {
  const out = new Map<string, StatementFigures>();
  if (userIds.length === 0) return out;
  const credit = sql`l.credit`;
  const isPlan = sql`l.kind = 'plan'`;
  const isRatio = sql`${isPlan} AND strpos(${credit}, '/') > 0`;
  const { rows } = await sql<{
    user_id: string;
    kind: FigureGroup["kind"];
    plan_id: string | null;
    plan_version: number | null;
    status: FigureGroup["status"];
    currency: string;
    lines: string;
    amount: string;
    credit: string | null;
    ratio_credits: string[] | null;
    quota: string | null;
    at: Date | string | null;
    deals: string;
  }>`
    SELECT l.user_id, l.kind, l.plan_id, l.plan_version, l.status, l.currency,
      count(*) AS lines, sum(l.amount)::text AS amount,
      sum(CASE WHEN ${isPlan} AND strpos(${credit}, '/') = 0 THEN (${credit})::numeric END)::text AS credit,
      array_agg(${credit}) FILTER (WHERE ${isRatio}) AS ratio_credits,
      (array_agg(l.quota ORDER BY l.calculated_at DESC) FILTER (WHERE ${isPlan}))[1] AS quota,
      max(l.calculated_at) FILTER (WHERE ${isPlan}) AS at,
      count(l.deal_id) FILTER (WHERE ${isPlan}) AS deals
    FROM commission_lines l
    WHERE l.user_id = ANY(${[...userIds]}::text[]) AND l.period = ${period} AND l.status <> 'void'
    GROUP BY l.user_id, l.kind, l.plan_id, l.plan_version, l.status, l.currency
  `.execute(db);
  const of = (userId: string) => {
    const figures = out.get(userId) ?? { groups: [], deals: 0 };
    out.set(userId, figures);
    return figures;
  };
  for (const row of rows) {
    const figures = of(row.user_id);
    figures.deals += Number(row.deals);
    let sum = row.credit === null ? NO_CREDIT : parseRatio(row.credit);
    for (const ratio of row.ratio_credits ?? []) sum = addRatios(sum, parseRatio(ratio));
    figures.groups.push({
      kind: row.kind,
      plan_id: row.plan_id,
      plan_version: row.plan_version,
      status: row.status,
      currency: row.currency,
      lines: Number(row.lines),
      amount: parse(row.amount),
      credit: sum,
      quota: row.quota,
      at: toIso(row.at) ?? "",
    });
  }
  return out;
}
