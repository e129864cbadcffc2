import { actorLabel, type Ctx, type Tx } from "../context.js";
import { insertJsonRows } from "../db/sql.js";
import { AUDIT_EVENT_COLUMNS } from "../db/tables-platform.js";
import { newId } from "../ids.js";

// Fields that may hold a secret are dropped before anything reaches the audit trail.
const SECRET_FIELDS = new Set(["key", "secret", "key_hash", "secret_encrypted"]);
const dropSecrets = (key: string, value: unknown) => (SECRET_FIELDS.has(key) ? undefined : value);

/** The value as JSON text without its secret fields; null for nothing. */
function scrub(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return JSON.stringify(value, dropSecrets);
}

export interface AuditEntry {
  action: string;
  resource: string;
  resourceId: string;
  before?: unknown;
  after?: unknown;
}

/** An audit row but its `before` and `after` (JSON text, scrubbed). */
function auditRow(ctx: Ctx, entry: AuditEntry) {
  const actor = actorLabel(ctx.actor);
  return {
    id: newId("aud", ctx.now.getTime()),
    actor_type: ctx.actor.type,
    actor_id: actor.id,
    actor_name: actor.name,
    action: entry.action,
    resource: entry.resource,
    resource_id: entry.resourceId,
    request_id: ctx.requestId,
    created_at: ctx.now,
  };
}

/** Writes one audit row in the caller's transaction, so the change and its record commit together. */
export async function audit(tx: Tx, ctx: Ctx, entry: AuditEntry): Promise<void> {
  await tx
    .insertInto("audit_events")
    .values({ ...auditRow(ctx, entry), before: scrub(entry.before), after: scrub(entry.after) })
    .execute();
}

/** `audit` for many entries, in one INSERT (bulk ingest writes thousands). */
export async function auditMany(tx: Tx, ctx: Ctx, entries: AuditEntry[]): Promise<void> {
  // No column of the row is named like a secret field, so one pass scrubs `before` and `after`.
  const rows = entries.map((entry) =>
    JSON.stringify({ ...auditRow(ctx, entry), before: entry.before ?? null, after: entry.after ?? null }, dropSecrets),
  );
  await insertJsonRows(tx, "audit_events", AUDIT_EVENT_COLUMNS, rows);
}
