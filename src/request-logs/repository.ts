import type { Selectable } from "kysely";
import type { Db, RequestLogsTable } from "../db/schema.js";
import { toIso } from "../http/date-fields.js";
import type { ListRequestLogsQuery, RequestLog } from "./schema.js";

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
