import type { AuditEntry } from "../audit/record.js";
import { actorLabel, type Ctx, type Tx } from "../context.js";
import type { EventData, EventType } from "../events/catalogue.js";
import { newId } from "../ids.js";
import { insertJsonRows, insertRecords, withRawJson } from "./batch-sql.js";

/*
 * Many outbox and audit rows in one INSERT each: bulk ingest and wide recalculations write thousands.
 * Rows are exactly those of events/emit.ts and audit/record.ts (same ids, columns, secret scrubbing);
 * these belong beside them as emitMany/auditMany, and move there when those files take them.
 */

const SECRET_FIELDS = new Set(["key", "secret", "key_hash", "secret_encrypted"]);

function scrubbed(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  return JSON.parse(JSON.stringify(value, (k, v) => (SECRET_FIELDS.has(k) ? undefined : v)));
}

const AUDIT_COLUMNS = {
  id: "text",
  actor_type: "text",
  actor_id: "text",
  actor_name: "text",
  action: "text",
  resource: "text",
  resource_id: "text",
  before: "jsonb",
  after: "jsonb",
  request_id: "text",
  created_at: "timestamptz",
};

const EVENT_COLUMNS = { id: "text", type: "text", data: "jsonb", created_at: "timestamptz" };

export function emitMany(tx: Tx, ctx: Ctx, events: { type: EventType; data: EventData }[]): Promise<void> {
  return emitManyJson(
    tx,
    ctx,
    events.map((e) => ({ type: e.type, dataJson: JSON.stringify(e.data) })),
  );
}

/** `emitMany` with each event's data already JSON text (built around parts serialized once). */
export async function emitManyJson(tx: Tx, ctx: Ctx, events: { type: EventType; dataJson: string }[]): Promise<void> {
  const rows = events.map((e) =>
    withRawJson({ id: newId("evt", ctx.now.getTime()), type: e.type, created_at: ctx.now }, "data", e.dataJson),
  );
  await insertJsonRows(tx, "events", EVENT_COLUMNS, rows);
}

export async function auditMany(tx: Tx, ctx: Ctx, entries: AuditEntry[]): Promise<void> {
  const actor = actorLabel(ctx.actor);
  const rows = entries.map((entry) => ({
    id: newId("aud", ctx.now.getTime()),
    actor_type: ctx.actor.type,
    actor_id: actor.id,
    actor_name: actor.name,
    action: entry.action,
    resource: entry.resource,
    resource_id: entry.resourceId,
    before: scrubbed(entry.before),
    after: scrubbed(entry.after),
    request_id: ctx.requestId,
    created_at: ctx.now,
  }));
  await insertRecords(tx, "audit_events", AUDIT_COLUMNS, rows);
}
