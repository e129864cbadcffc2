import { type Selectable, sql } from "kysely";
import type { Tx } from "../context.js";
import type { ApiKeysTable, Db } from "../db/schema.js";
import { responseColumns } from "../http/date-fields.js";
import type { ApiKey } from "./schema.js";

type Row = Selectable<ApiKeysTable>;

const KEY_FIELDS = [
  "id",
  "name",
  "scope",
  "environment",
  "prefix",
  "mcp_access",
  "replaces",
  "created_at",
  "last_used_at",
  "expires_at",
  "revoked_at",
] as const;

export function toApiKey(row: Row): ApiKey {
  return responseColumns({ ...row, prefix: row.key_prefix }, KEY_FIELDS);
}

export interface NewKeyRow {
  id: string;
  name: string;
  scope: Row["scope"];
  environment: string;
  key_hash: string;
  key_prefix: string;
  replaces: string | null;
  created_at: Date;
  expires_at: Date | null;
}

export async function insertKey(db: Db, row: NewKeyRow): Promise<ApiKey> {
  return toApiKey(await db.insertInto("api_keys").values(row).returningAll().executeTakeFirstOrThrow());
}

/** The authentication lookup: by hash only, so the raw key is never compared or stored. */
export async function findKeyByHash(db: Db, keyHash: string): Promise<Row | undefined> {
  return db.selectFrom("api_keys").selectAll().where("key_hash", "=", keyHash).executeTakeFirst();
}

/** The version `api_key_version` holds, bumped by a trigger whenever a key changes (api-keys/key-cache.ts). */
export async function readKeyVersion(db: Db): Promise<string> {
  const r = await sql<{ version: string }>`SELECT version FROM api_key_version`.execute(db);
  return String(r.rows[0]?.version ?? "0");
}

export async function findKey(db: Db, id: string): Promise<ApiKey | undefined> {
  const row = await db.selectFrom("api_keys").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toApiKey(row);
}

export async function lockKey(db: Tx, id: string): Promise<ApiKey | undefined> {
  const row = await db.selectFrom("api_keys").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
  return row && toApiKey(row);
}

export async function listKeys(db: Db, limit: number, offset: number): Promise<{ rows: ApiKey[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom("api_keys")
      .selectAll()
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom("api_keys")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toApiKey), total: Number(count.n) };
}

export async function countKeys(db: Db): Promise<number> {
  const r = await db
    .selectFrom("api_keys")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function updateKey(
  db: Tx,
  id: string,
  changes: Partial<Pick<Row, "revoked_at" | "expires_at" | "mcp_access">>,
): Promise<ApiKey> {
  return toApiKey(
    await db.updateTable("api_keys").set(changes).where("id", "=", id).returningAll().executeTakeFirstOrThrow(),
  );
}

/** Throttled by the caller; a lost update here only makes `last_used_at` a little older. */
export async function touchKey(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable("api_keys").set({ last_used_at: at }).where("id", "=", id).execute();
}
