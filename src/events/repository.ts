import { type Insertable, type RawBuilder, sql } from "kysely";
import type { Db } from "../db/schema.js";
import { insertJsonRows, textArray } from "../db/sql.js";
import { EVENT_COLUMNS, type EventsTable } from "../db/tables-platform.js";

/** One outbox row, in the caller's transaction (events/emit.ts). */
export async function insertEvent(db: Db, row: Insertable<EventsTable>): Promise<void> {
  await db.insertInto("events").values(row).execute();
}

/** Outbox rows given as JSON text, in one INSERT (bulk ingest and wide recalculations write thousands). */
export function insertEventsJson(db: Db, rowsJson: string[]): Promise<void> {
  return insertJsonRows(db, "events", EVENT_COLUMNS, rowsJson);
}

/**
 * The INSERT of outbox rows of one type and time that `source` renders (columns ord 1…n and data), the nth
 * with the nth id: for the caller to run, alone or as a CTE of its statement.
 */
export function eventsInsert(
  same: Pick<Insertable<EventsTable>, "type" | "created_at">,
  ids: string[],
  source: RawBuilder<unknown>,
): RawBuilder<unknown> {
  return sql`INSERT INTO events (id, type, data, created_at)
    SELECT i.id, ${same.type}, s.data, ${same.created_at}
    FROM (${source}) s JOIN unnest(${textArray(ids)}) WITH ORDINALITY AS i (id, ord) ON i.ord = s.ord
    ORDER BY s.ord`;
}
