import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenMetrics, registerDatabaseGauges } from "../../src/app/metrics-server.js";
import { embeddedRetentionJobHandler, retentionJobHandler, scheduleRetention } from "../../src/app/retention.js";
import type { JobRow } from "../../src/jobs/queue.js";
import { registry } from "../../src/metrics.js";
import { bearer, createTestApp, type TestApp } from "../harness.js";

let t: TestApp;
let removeGauges = () => {};
beforeAll(async () => {
  t = await createTestApp();
  // The registry is the process's: counts from files run before this one in the worker start at zero.
  registry.resetMetrics();
});
afterAll(async () => {
  removeGauges();
  await t.close();
});

const NOW = new Date("2026-11-22T10:00:00.000Z");
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000);

describe("retention", () => {
  it("deletes request logs past 30 days and expired rate-limit state, keeps the rest, and queues its successor", async () => {
    const log = (id: string, at: Date) => ({
      id,
      key_id: null,
      method: "GET",
      path: "/",
      status: 200,
      duration_ms: 1,
      client_ip: null,
      user_agent: null,
      created_at: at,
    });
    await t.db.db
      .insertInto("request_logs")
      .values([log("req_old", daysAgo(31)), log("req_new", daysAgo(29))])
      .execute();
    await sql`INSERT INTO rate_limits (key, hits, allowed, expires_at) VALUES
      ('key:gone', ARRAY[1]::bigint[], true, ${daysAgo(1)}), ('key:live', ARRAY[1]::bigint[], true, ${new Date(NOW.getTime() + 1000)})`.execute(
      t.db.db,
    );
    let progress = 0;
    await retentionJobHandler({} as JobRow, {
      db: t.db.db,
      now: () => NOW,
      progress: async (n) => {
        progress = n;
      },
    });
    const logs = await t.db.db
      .selectFrom("request_logs")
      .select("id")
      .where("id", "in", ["req_old", "req_new"])
      .execute();
    expect(logs.map((r) => r.id)).toEqual(["req_new"]);
    const limits = await t.db.db.selectFrom("rate_limits").select("key").orderBy("key").execute();
    expect(limits.map((r) => r.key)).toEqual(["key:live"]);
    expect(progress).toBe(2);
    const queued = await t.db.db
      .selectFrom("jobs")
      .select(["kind", "run_at"])
      .where("kind", "=", "retention")
      .execute();
    expect(queued).toEqual([{ kind: "retention", run_at: new Date(NOW.getTime() + 600_000) }]);
    await scheduleRetention(t.db.db, NOW); // a second waiting run is refused by the partial unique index
    expect(await t.db.db.selectFrom("jobs").select("id").where("kind", "=", "retention").execute()).toHaveLength(1);
  });
});

describe("embedded upkeep", () => {
  it("the embedded deployment's retention run also vacuums and analyzes the growing tables", async () => {
    const stats = () =>
      sql<{ relname: string; analyzed: boolean; vacuumed: boolean }>`
        SELECT relname, last_analyze IS NOT NULL AS analyzed, last_vacuum IS NOT NULL AS vacuumed
        FROM pg_stat_user_tables
        WHERE schemaname = current_schema() AND relname IN ('deals', 'commission_lines', 'request_logs')
        ORDER BY relname`
        .execute(t.db.db)
        .then((r) => r.rows);
    await embeddedRetentionJobHandler({} as JobRow, { db: t.db.db, now: () => NOW, progress: async () => {} });
    expect(await stats()).toEqual([
      { relname: "commission_lines", analyzed: true, vacuumed: true },
      { relname: "deals", analyzed: true, vacuumed: true },
      { relname: "request_logs", analyzed: true, vacuumed: true },
    ]);
  });
});

describe("/metrics", () => {
  it("exposes request counts by route and status, rate-limit rejections and queue gauges", async () => {
    const { key } = await t.key("read");
    await t.app.inject({ method: "GET", url: "/api/v1/users", headers: bearer(key) });
    await t.app.inject({ method: "GET", url: "/api/v1/users" });
    removeGauges = registerDatabaseGauges(t.db);
    const server = await listenMetrics("127.0.0.1", 0);
    const port = (server.address() as AddressInfo).port;
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    const text = await res.text();
    server.close();
    expect(res.status).toBe(200);
    expect(text).toContain('cts_http_requests_total{route="/api/v1/users",method="GET",status="200"} 1');
    expect(text).toContain('cts_http_requests_total{route="/api/v1/users",method="GET",status="401"} 1');
    expect(text).toContain(
      'cts_http_request_duration_seconds_count{route="/api/v1/users",method="GET",status="200"} 1',
    );
    expect(text).toContain('cts_jobs{state="queued"}');
    expect(text).toMatch(/^cts_db_pool_waiting \d+$/m);
    expect((await fetch(`http://127.0.0.1:${port}/other`).catch(() => null))?.status ?? 404).toBe(404);
  });
});
