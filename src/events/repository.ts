import type { Insertable } from "kysely";
import type { Db } from "../db/schema.js";
import { insertJsonRows } from "../db/sql.js";
import { EVENT_COLUMNS, type EventsTable } from "../db/tables-platform.js";

/** One outbox row, in the caller's transaction (events/emit.ts). */
export async function insertEvent(db: Db, row: Insertable<EventsTable>): Promise<void> {
  await db.insertInto("events").values(row).execute();
}

/** Outbox rows given as JSON text, in one INSERT (bulk ingest and wide recalculations write thousands). */
export function insertEventsJson(db: Db, rowsJson: string[]): Promise<void> {
  return insertJsonRows(db, "events", EVENT_COLUMNS, rowsJson);
}
