import { type Insertable, type RawBuilder, type Selectable, sql } from "kysely";
import { ofVisibleUsers, type Visible } from "../access/index.js";
import type { AuditEventsTable, Db } from "../db/schema.js";
import { anyOf, insertJsonRows, textArray } from "../db/sql.js";
import { AUDIT_EVENT_COLUMNS } from "../db/tables-platform.js";
import { toIso } from "../http/date-fields.js";
import type { AuditEvent, ListAuditEventsQuery } from "./schema.js";

function toAuditEvent(row: Selectable<AuditEventsTable>): AuditEvent {
  return {
    id: row.id,
    actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
    action: row.action,
    resource: row.resource,
    resource_id: row.resource_id,
    before: row.before ?? null,
    after: row.after ?? null,
    request_id: row.request_id,
    created_at: toIso(row.created_at)!,
  };
}

/** One audit row (audit/record.ts scrubs `before` and `after` first). */
export async function insertAuditEvent(db: Db, row: Insertable<AuditEventsTable>): Promise<void> {
  await db.insertInto("audit_events").values(row).execute();
}

/** The columns of many audit rows that are the same for each: who, what, when. */
export type AuditConstants = Pick<
  Insertable<AuditEventsTable>,
  "actor_type" | "actor_id" | "actor_name" | "action" | "resource" | "request_id" | "created_at"
>;

/**
 * The INSERT of audit rows that `source` renders (columns ord 1…n, resource_id, before, after,
 * line_totals), the nth with the nth id: for the caller to run, alone or as a CTE of its statement.
 */
export function auditEventsInsert(
  same: AuditConstants,
  ids: string[],
  source: RawBuilder<unknown>,
): RawBuilder<unknown> {
  return sql`INSERT INTO audit_events (id, actor_type, actor_id, actor_name, action, resource, resource_id, before,
      after, request_id, created_at, line_totals)
    SELECT i.id, ${same.actor_type}, ${same.actor_id}, ${same.actor_name}, ${same.action}, ${same.resource},
      s.resource_id, s.before, s.after, ${same.request_id}, ${same.created_at}, s.line_totals
    FROM (${source}) s JOIN unnest(${textArray(ids)}) WITH ORDINALITY AS i (id, ord) ON i.ord = s.ord
    ORDER BY s.ord`;
}

/** Audit rows given as JSON text, in one INSERT (bulk ingest writes thousands). */
export function insertAuditEventsJson(db: Db, rowsJson: string[]): Promise<void> {
  return insertJsonRows(db, "audit_events", AUDIT_EVENT_COLUMNS, rowsJson);
}

export async function listAuditEvents(db: Db, q: ListAuditEventsQuery, limit: number, offset: number) {
  let query = db.selectFrom("audit_events");
  if (q.resource) query = query.where("resource", "=", q.resource);
  if (q.resource_id) query = query.where("resource_id", "=", q.resource_id);
  if (q.actor === "owner-cli") query = query.where("actor_type", "=", "owner");
  else if (q.actor) query = query.where("actor_id", "=", q.actor);
  if (q.since) query = query.where("created_at", ">=", new Date(q.since));
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toAuditEvent), total: Number(count.n) };
}

/** The ids of a deal's lines, only those of the visible users when `visible` is a list. */
function linesOfDeal(db: Db, dealId: string, visible: Visible) {
  const lines = db.selectFrom("commission_lines").select("id").where("deal_id", "=", dealId);
  return visible ? lines.where(ofVisibleUsers("user_id", visible)) : lines;
}

/**
 * The events about one deal: the deal's own, its disputes' and those of its lines (adjustments are
 * audited under the line). `visible`: whose lines the reader sees (null: everyone's), so a co-credited
 * rep's line stays theirs alone — and so does its `deal.adjust` row, whose before/after hold the
 * deal-wide total: a reader who sees only some people sees each adjustment as its line's
 * `commission.adjust` row, when the line is theirs. The dispute and line ids are read first, so each
 * arm is an index lookup by (resource, resource_id), not a scan of every dispute or line event.
 * Newest first, as every audit list.
 */
export async function listDealAuditEvents(db: Db, dealId: string, visible: Visible, limit: number, offset: number) {
  const [disputes, lines] = await Promise.all([
    db.selectFrom("disputes").select("id").where("deal_id", "=", dealId).execute(),
    linesOfDeal(db, dealId, visible).execute(),
  ]);
  const query = db.selectFrom("audit_events").where((eb) =>
    eb.or([
      eb.and([
        eb("resource", "=", "deal"),
        eb("resource_id", "=", dealId),
        ...(visible ? [eb("action", "!=", "deal.adjust")] : []),
      ]),
      eb.and([
        eb("resource", "=", "dispute"),
        anyOf(
          "resource_id",
          disputes.map((d) => d.id),
        ),
      ]),
      eb.and([
        eb("resource", "=", "commission"),
        anyOf(
          "resource_id",
          lines.map((l) => l.id),
        ),
      ]),
    ]),
  );
  const page = query.selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).offset(offset);
  const sums = visible && [
    visibleSum("before", visible).as("before_visible"),
    visibleSum("after", visible).as("after_visible"),
  ];
  const [rows, count] = await Promise.all([
    sums ? page.select(sums).execute() : page.execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((row) => (sums ? asSeen(row as SeenRow) : toAuditEvent(row))), total: Number(count.n) };
}

/** Σ of the visible people's line totals at `side` of a deal row; null when the row kept none. */
function visibleSum(side: "before" | "after", visible: readonly string[]): RawBuilder<string | null> {
  return sql<string | null>`CASE WHEN line_totals ? ${side} THEN (SELECT coalesce(sum(t.value::numeric), 0)
    FROM jsonb_each_text(line_totals -> ${side}) t WHERE ${ofVisibleUsers("t.key", visible)}) END`;
}

type SeenRow = Selectable<AuditEventsTable> & { before_visible: string | null; after_visible: string | null };

/**
 * An event as a reader who sees only some people reads it (API.md §20 b): a deal snapshot's total is
 * the sum of their lines then (null for rows written before line totals were kept, 014). Line totals are
 * kept per person, not per currency: a snapshot whose lines were in several currencies has null totals
 * for such a reader (API.md §15: never a sum across currencies).
 */
function asSeen(row: SeenRow): AuditEvent {
  const event = toAuditEvent(row);
  if (row.resource !== "deal") return event;
  const narrow = (snapshot: unknown, sum: string | null) => {
    if (!snapshot || typeof snapshot !== "object" || !("total_commission" in snapshot)) return snapshot;
    const totals = "commission_totals" in snapshot ? (snapshot.commission_totals as { currency: string }[]) : null;
    const mixed = totals !== null && totals.length > 1;
    const total = sum === null || mixed ? null : Number(sum);
    const perCurrency = totals && (mixed || total === null ? null : totals.map((t) => ({ ...t, amount: total })));
    return {
      ...snapshot,
      total_commission: total,
      total_commission_scope: "visible",
      ...(totals && { commission_totals: perCurrency }),
    };
  };
  return { ...event, before: narrow(event.before, row.before_visible), after: narrow(event.after, row.after_visible) };
}
