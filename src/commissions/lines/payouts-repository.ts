import { sql } from "kysely";
import { ofVisibleUsers, type Visible } from "../../access/index.js";
import type { Db } from "../../db/schema.js";
import type { ListPayoutsQuery, PayoutGroup } from "../schema.js";

/**
 * Approved lines (locked, not yet paid) by user, period and the line's currency (API.md §15: a converted line
 * is in its plan's), summed in SQL `numeric`.
 */
function grouped(db: Db, q: ListPayoutsQuery, visible: Visible) {
  let query = db
    .selectFrom("commission_lines as l")
    .innerJoin("users as u", "u.id", "l.user_id")
    .where("l.status", "=", "approved");
  if (visible) query = query.where(ofVisibleUsers("l.user_id", visible));
  if (q.user_id) query = query.where("l.user_id", "=", q.user_id);
  if (q.period) query = query.where("l.period", "=", q.period);
  return query.groupBy(["l.user_id", "u.name", "l.period", "l.currency"]);
}

export async function listPayoutGroups(
  db: Db,
  q: ListPayoutsQuery,
  visible: Visible,
  limit: number,
  offset: number,
): Promise<{ rows: PayoutGroup[]; total: number }> {
  const groups = grouped(db, q, visible);
  const [rows, count] = await Promise.all([
    groups
      .select([
        "l.user_id",
        "u.name as user_name",
        "l.period",
        "l.currency",
        sql<string>`sum(l.amount)::text`.as("total"),
        sql<string>`count(*)`.as("line_count"),
        sql<string>`count(DISTINCT l.deal_id)`.as("deal_count"),
      ])
      .orderBy("u.name")
      .orderBy("l.user_id")
      .orderBy("l.period")
      .orderBy("l.currency")
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom(groups.select("l.user_id").as("g"))
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((r) => ({
      user_id: r.user_id,
      user_name: r.user_name,
      period: r.period,
      currency: r.currency,
      total: Number(r.total),
      line_count: Number(r.line_count),
      deal_count: Number(r.deal_count),
    })),
    total: Number(count.n),
  };
}
