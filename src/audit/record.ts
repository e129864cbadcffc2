import { actorLabel, type Ctx, type Tx } from "../context.js";
import { newId } from "../ids.js";

// Fields that may hold a secret are dropped before anything reaches the audit trail.
const SECRET_FIELDS = new Set(["key", "secret", "key_hash", "secret_encrypted"]);

function scrub(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return JSON.stringify(value, (k, v) => (SECRET_FIELDS.has(k) ? undefined : v));
}

export interface AuditEntry {
  action: string;
  resource: string;
  resourceId: string;
  before?: unknown;
  after?: unknown;
}

/** Writes one audit row in the caller's transaction, so the change and its record commit together. */
export async function audit(tx: Tx, ctx: Ctx, entry: AuditEntry): Promise<void> {
  const actor = actorLabel(ctx.actor);
  await tx
    .insertInto("audit_events")
    .values({
      id: newId("aud", ctx.now.getTime()),
      actor_type: ctx.actor.type,
      actor_id: actor.id,
      actor_name: actor.name,
      action: entry.action,
      resource: entry.resource,
      resource_id: entry.resourceId,
      before: scrub(entry.before),
      after: scrub(entry.after),
      request_id: ctx.requestId,
      created_at: ctx.now,
    })
    .execute();
}
