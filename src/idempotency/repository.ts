import { sql } from "kysely";
import type { Tx } from "../context.js";
import type { Db } from "../db/schema.js";

export interface StoredResponse {
  status: number;
  contentType: string | null;
  body: string;
}

export type StoredRecord =
  | { fingerprint: string; state: "done"; response: StoredResponse }
  | { fingerprint: string; state: "secret" };

export async function findRecord(db: Db, keyId: string, idemKey: string): Promise<StoredRecord | undefined> {
  const row = await db
    .selectFrom("idempotency_keys")
    .select(["fingerprint", "state", "status", "content_type", "body"])
    .where("key_id", "=", keyId)
    .where("idem_key", "=", idemKey)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.state === "secret") return { fingerprint: row.fingerprint, state: "secret" };
  const response = { status: row.status!, contentType: row.content_type, body: row.body ?? "" };
  return { fingerprint: row.fingerprint, state: "done", response };
}

// Namespaces the (int4, int4) advisory locks of idempotency keys; deals/repository.ts uses 7150422.
const RUNNING_LOCK_SPACE = 7_150_423;

/**
 * "A request with this key is running" on PostgreSQL: a lock held by that request's own transaction,
 * so it ends with the transaction or with the process. A hash collision only means a spurious 409.
 */
export async function holdRunningLock(tx: Tx, keyId: string, idemKey: string): Promise<boolean> {
  const { rows } = await sql<{ locked: boolean }>`
    SELECT pg_try_advisory_xact_lock(${RUNNING_LOCK_SPACE}, hashtext(${`${keyId} ${idemKey}`})) AS locked`.execute(tx);
  return rows[0]?.locked === true;
}

/**
 * `replace`: the record of a request whose work commits in this same transaction, which wins over a
 * record a failed concurrent attempt may have left. `keep-existing`: a response without work (a 4xx).
 */
export async function saveRecord(
  db: Db,
  record: { keyId: string; idemKey: string; fingerprint: string; createdAt: Date; response: StoredResponse | "secret" },
  onConflict: "replace" | "keep-existing",
): Promise<void> {
  const { response } = record;
  const values =
    response === "secret"
      ? { state: "secret" as const, status: null, content_type: null, body: null }
      : { state: "done" as const, status: response.status, content_type: response.contentType, body: response.body };
  await db
    .insertInto("idempotency_keys")
    .values({
      key_id: record.keyId,
      idem_key: record.idemKey,
      fingerprint: record.fingerprint,
      created_at: record.createdAt,
      ...values,
    })
    .onConflict((oc) => {
      const target = oc.columns(["key_id", "idem_key"]);
      return onConflict === "replace"
        ? target.doUpdateSet({ fingerprint: record.fingerprint, ...values })
        : target.doNothing();
    })
    .execute();
}
