import { type Selectable, sql } from "kysely";
import type { Db, RequestLogsTable } from "../db/schema.js";
import { toIso } from "../http/date-fields.js";
import type { ListRequestLogsQuery, RequestLog } from "./schema.js";

export interface RequestLogEntry {
  id: string;
  key_id: string | null;
  /** The signed-in person of a session request (key_id is then null). */
  user_id?: string | null;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  client_ip: string | null;
  user_agent: string | null;
  created_at: Date;
}

/**
 * The buffered rows in one INSERT (request-logs/writer.ts): one array per column, not a parameter per
 * value, which on the embedded database halves its cost per row (bench/README.md). The time goes as
 * epoch milliseconds (float8, exact to the millisecond the column keeps): parsing ISO text cost more.
 */
export async function insertRequestLogs(db: Db, rows: RequestLogEntry[]): Promise<void> {
  const column = <K extends keyof RequestLogEntry>(k: K) => rows.map((r) => r[k] ?? null);
  await sql`
    INSERT INTO request_logs (id, key_id, user_id, method, path, status, duration_ms, client_ip, user_agent, created_at)
    SELECT id, key_id, user_id, method, path, status, duration_ms, client_ip, user_agent, to_timestamp(at_ms / 1000)
    FROM unnest(${column("id")}::text[], ${column("key_id")}::text[], ${column("user_id")}::text[],
      ${column("method")}::text[],
      ${column("path")}::text[], ${column("status")}::integer[], ${column("duration_ms")}::numeric[],
      ${column("client_ip")}::text[], ${column("user_agent")}::text[],
      ${rows.map((r) => r.created_at.getTime())}::float8[])
      AS r(id, key_id, user_id, method, path, status, duration_ms, client_ip, user_agent, at_ms)`.execute(db);
}

function toRequestLog(row: Selectable<RequestLogsTable>): RequestLog {
  return {
    id: row.id,
    key_id: row.key_id,
    user_id: row.user_id,
    method: row.method,
    path: row.path,
    status: row.status,
    duration_ms: Number(row.duration_ms),
    client_ip: row.client_ip,
    user_agent: row.user_agent,
    created_at: toIso(row.created_at)!,
  };
}

export async function listRequestLogs(db: Db, q: ListRequestLogsQuery, limit: number, offset: number) {
  let query = db.selectFrom("request_logs");
  if (q.key_id) query = query.where("key_id", "=", q.key_id);
  if (q.user_id) query = query.where("user_id", "=", q.user_id);
  if (q.status !== undefined) query = query.where("status", "=", q.status);
  if (q.since) query = query.where("created_at", ">=", new Date(q.since));
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toRequestLog), total: Number(count.n) };
}
