import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { Kdb } from "../db/connect.js";

/** How long a first request may run before its record counts as abandoned (a crash mid-request). */
const RUNNING_LEASE_MS = 60_000;

export type Claim =
  | { kind: "first" }
  | { kind: "replay"; status: number; contentType: string | null; body: string }
  | { kind: "reused" }
  | { kind: "in_use" }
  | { kind: "secret" };

/** Sorted keys at every depth, so the same body always gives the same fingerprint. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

export function fingerprintOf(method: string, path: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method} ${path}\n${JSON.stringify(canonical(body ?? {}))}`)
    .digest("hex");
}

/**
 * Claims an Idempotency-Key for this request: the first request inserts a `running` record; later
 * ones learn whether to replay, or why they cannot run (another body, still running, a secret).
 */
export async function claimKey(
  db: Kdb,
  keyId: string,
  idemKey: string,
  fingerprint: string,
  now: Date,
): Promise<Claim> {
  const lease = new Date(now.getTime() + RUNNING_LEASE_MS);
  const inserted = await sql<{ key_id: string }>`
    INSERT INTO idempotency_keys (key_id, idem_key, fingerprint, state, created_at, locked_until)
    VALUES (${keyId}, ${idemKey}, ${fingerprint}, 'running', ${now}, ${lease})
    ON CONFLICT (key_id, idem_key) DO UPDATE SET locked_until = ${lease}, created_at = ${now}
      WHERE idempotency_keys.state = 'running' AND idempotency_keys.locked_until < ${now}
        AND idempotency_keys.fingerprint = ${fingerprint}
    RETURNING key_id`.execute(db);
  if (inserted.rows.length > 0) return { kind: "first" };
  const row = await db
    .selectFrom("idempotency_keys")
    .selectAll()
    .where("key_id", "=", keyId)
    .where("idem_key", "=", idemKey)
    .executeTakeFirst();
  if (!row) return claimKey(db, keyId, idemKey, fingerprint, now); // purged in between: try again
  if (row.fingerprint !== fingerprint) return { kind: "reused" };
  if (row.state === "running") return { kind: "in_use" };
  if (row.state === "secret") return { kind: "secret" };
  return { kind: "replay", status: row.status!, contentType: row.content_type, body: row.body ?? "" };
}

export async function completeKey(
  db: Kdb,
  keyId: string,
  idemKey: string,
  response: { status: number; contentType: string | null; body: string } | "secret",
): Promise<void> {
  const set =
    response === "secret"
      ? { state: "secret" as const, status: null, content_type: null, body: null, locked_until: null }
      : {
          state: "done" as const,
          status: response.status,
          content_type: response.contentType,
          body: response.body,
          locked_until: null,
        };
  await db
    .updateTable("idempotency_keys")
    .set(set)
    .where("key_id", "=", keyId)
    .where("idem_key", "=", idemKey)
    .execute();
}

/** A 5xx is not stored: the client may retry the same key. */
export async function forgetKey(db: Kdb, keyId: string, idemKey: string): Promise<void> {
  await db.deleteFrom("idempotency_keys").where("key_id", "=", keyId).where("idem_key", "=", idemKey).execute();
}
