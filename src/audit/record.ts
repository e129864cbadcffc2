import type { RawBuilder } from "kysely";
import { type Actor, actorLabel, type Ctx, type Tx } from "../context.js";
import type { Db } from "../db/schema.js";
import type { LineTotalsColumn } from "../db/tables-platform.js";
import { mapTurning } from "../event-loop.js";
import { newId } from "../ids.js";
import { auditEventsInsert, insertAuditEvent, insertAuditEventsJson } from "./repository.js";

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
  /** A deal's row: each person's non-void line total before and after, for readers who see only some (API.md §20 b). */
  lineTotals?: LineTotalsColumn;
}

type When = Pick<Ctx, "now" | "requestId">;
type ActorColumns = { actor_type: Actor["type"]; actor_id: string | null; actor_name: string };

function actorColumns(actor: Actor): ActorColumns {
  const { id, name } = actorLabel(actor);
  return { actor_type: actor.type, actor_id: id, actor_name: name };
}

// Nobody is signed in when a sign-in is refused: an anonymous person.
const ANONYMOUS: ActorColumns = { actor_type: "user", actor_id: null, actor_name: "anonymous" };

/** An audit row but its `before` and `after` (JSON text, scrubbed). */
function auditRow(at: When, actor: ActorColumns, entry: AuditEntry) {
  return {
    id: newId("aud", at.now.getTime()),
    ...actor,
    action: entry.action,
    resource: entry.resource,
    resource_id: entry.resourceId,
    request_id: at.requestId,
    created_at: at.now,
    line_totals: entry.lineTotals ?? null,
  };
}

function insertAudit(db: Db, at: When, actor: ActorColumns, entry: AuditEntry): Promise<void> {
  return insertAuditEvent(db, {
    ...auditRow(at, actor, entry),
    before: scrub(entry.before),
    after: scrub(entry.after),
    line_totals: scrub(entry.lineTotals),
  });
}

/** Writes one audit row in the caller's transaction, so the change and its record commit together. */
export function audit(tx: Tx, ctx: Ctx, entry: AuditEntry): Promise<void> {
  return insertAudit(tx, ctx, actorColumns(ctx.actor), entry);
}

/**
 * The audit row of a refused sign-in (`session.login_failed`), by an anonymous actor
 * (`{"type":"user","id":null,"name":"anonymous"}`); written on its own, there being no change to join.
 */
export function auditFailedSignIn(db: Db, at: When, entry: Omit<AuditEntry, "action">): Promise<void> {
  return insertAudit(db, at, ANONYMOUS, { ...entry, action: "session.login_failed" });
}

/** `audit` for many entries, in one INSERT (bulk ingest writes thousands). */
export async function auditMany(tx: Tx, ctx: Ctx, entries: AuditEntry[]): Promise<void> {
  // No column of the row is named like a secret field, so one pass scrubs `before` and `after`.
  const actor = actorColumns(ctx.actor);
  const rows = await mapTurning(entries, (entry) =>
    JSON.stringify(
      { ...auditRow(ctx, actor, entry), before: entry.before ?? null, after: entry.after ?? null },
      dropSecrets,
    ),
  );
  await insertAuditEventsJson(tx, rows);
}

/**
 * `auditMany` for `count` rows PostgreSQL renders, as an INSERT for the caller's statement: `source`
 * selects their ord (1…count), resource_id, before, after and line_totals. A payout run audits the
 * thousands of deals it pays without carrying them through JavaScript. Nothing scrubs them: the caller
 * renders no secret field.
 */
export async function auditInsert(
  ctx: Ctx,
  entry: Pick<AuditEntry, "action" | "resource">,
  source: RawBuilder<unknown>,
  count: number,
): Promise<RawBuilder<unknown>> {
  const ids = await mapTurning(new Array<undefined>(count).fill(undefined), () => newId("aud", ctx.now.getTime()));
  const same = { ...actorColumns(ctx.actor), ...entry, request_id: ctx.requestId, created_at: ctx.now };
  return auditEventsInsert(same, ids, source);
}
