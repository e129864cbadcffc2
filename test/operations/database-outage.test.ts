import { randomBytes } from "node:crypto";
import http from "node:http";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { hashKey } from "../../src/api-keys/testing.js";
import { ctsEnv, type RunningServer, startServer, startWorker } from "../cli/spawn.js";

/**
 * #13.23: two API processes and a worker on a database of the test's own lose every connection
 * mid-load (pg_terminate_backend), then the database refuses connections for a while (ALLOW_CONNECTIONS
 * false: an outage of this database only; the machine's PostgreSQL is shared and never restarted here).
 * The processes stay up, answer 503 `unavailable` with Retry-After meanwhile, serve again afterwards, and
 * every write they acknowledged is readable.
 */
const PG_URL = process.env.TEST_DATABASE_URL;
const dbName = `cts_outage_${randomBytes(4).toString("hex")}`;
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
const apis: RunningServer[] = [];
let worker: RunningServer | undefined;
let bootstrap = "";

async function admin(sqlText: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await client.query(sqlText);
  } finally {
    await client.end();
  }
}

/** Every backend of the service's database: pool clients, LISTEN clients, the rate-limit store's. */
function terminateBackends() {
  return admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${dbName}'`);
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** A transport failure (the process died, the connection was reset) is status 0: the test forbids it. */
function request(port: number, method: string, path: string, key?: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = payload ? { "content-type": "application/json" } : {};
    if (key) headers.authorization = `Bearer ${key}`;
    const req = http.request({ host: "127.0.0.1", port, method, path, agent, headers }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : null }),
      );
    });
    req.on("error", (err) => resolve({ status: 0, headers: {}, body: { transport: String(err) } }));
    req.end(payload);
  });
}

async function newKey(scope: string): Promise<string> {
  const res = await request(apis[0]!.port, "POST", "/api/v1/api-keys", bootstrap, { name: `outage ${scope}`, scope });
  expect(res.status).toBe(201);
  return res.body.key;
}

/** Waits until every API process is ready again; bounded, so a process that never recovers fails the test. */
async function untilReady(): Promise<void> {
  await vi.waitFor(
    async () => {
      const ready = await Promise.all(apis.map((a) => request(a.port, "GET", "/readyz")));
      expect(ready.map((r) => r.status)).toEqual(apis.map(() => 200));
    },
    { timeout: 20_000, interval: 100 },
  );
}

/** Waits until the write load has had `n` more answers than now: what follows happens mid-load. */
async function afterAnswers(n: number, statuses: number[]): Promise<void> {
  const target = statuses.length + n;
  await vi.waitFor(() => expect(statuses.length).toBeGreaterThanOrEqual(target), { timeout: 20_000, interval: 10 });
}

function expectUnavailable(answer: Answer): void {
  expect(answer.status).toBe(503);
  expect(answer.body.error.code).toBe("unavailable");
  expect(answer.body.error.request_id).toBe(answer.headers["request-id"]);
  expect(Number(answer.headers["retry-after"])).toBeGreaterThanOrEqual(1);
}

/** Statuses counted, so a failure reads `{ "0": 98 }` rather than a list of 98 zeros. */
function tally(statuses: number[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

beforeAll(async () => {
  if (!PG_URL) return;
  await admin(`CREATE DATABASE ${dbName}`);
  const dbUrl = new URL(PG_URL);
  dbUrl.pathname = `/${dbName}`;
  // No Redis: the rate limits live in PostgreSQL, so the rate-limit store loses its connections too.
  const env = ctsEnv({
    DATABASE_URL: dbUrl.toString(),
    CTS_SECRET_KEY: randomBytes(32).toString("base64"),
    CTS_ENV: "test",
    CTS_SHUTDOWN_TIMEOUT: "10",
  });
  const first = await startServer(env, ["--no-worker"]);
  const rest = await Promise.all([startServer(env, ["--no-worker"]), startWorker(env)]);
  apis.push(first, rest[0]);
  worker = rest[1];
  bootstrap = /cts_test_[0-9A-Za-z]{43}/.exec(first.stderr())![0];
}, 180_000);

afterAll(async () => {
  for (const p of [...apis, ...(worker ? [worker] : [])]) p.child.kill("SIGKILL");
  agent.destroy();
  if (PG_URL) {
    await admin(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`).catch(() => {});
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
  }
});

describe.skipIf(!PG_URL)("#13.23 the database goes away and comes back", () => {
  const acknowledged: string[] = [];
  const statuses: number[] = [];
  const refusals: Answer[] = [];
  let writeKeys: string[] = [];
  let ownerId = "";

  /** Writes over both processes, 4 at a time, until told to stop or out of budget (under the per-key limit). */
  function writeLoad(budget: number, label: string): { stop: () => void; done: Promise<void> } {
    let stopped = false;
    let n = 0;
    const lane = async (lane: number) => {
      while (!stopped && n < budget) {
        const i = n++;
        const key = writeKeys[i % writeKeys.length]!;
        const answer = await request(apis[(i + lane) % 2]!.port, "POST", "/api/v1/deals", key, {
          opportunity_name: `${label} ${i}`,
          arr_amount: 1000 + i,
          close_date: "2026-11-20",
          owner_id: ownerId,
        });
        statuses.push(answer.status);
        if (answer.status === 201) acknowledged.push(answer.body.id);
        if (answer.status === 503) refusals.push(answer);
      }
    };
    const done = Promise.all([0, 1, 2, 3].map(lane)).then(() => undefined);
    return { stop: () => (stopped = true), done };
  }

  it("every backend terminated mid-load, three times: no process dies, nothing but 201 or 503", async () => {
    writeKeys = await Promise.all([newKey("write"), newKey("write"), newKey("write")]);
    const user = await request(apis[1]!.port, "POST", "/api/v1/users", writeKeys[0], {
      name: "Outage Rep",
      email: "outage@example.com",
    });
    expect(user.status).toBe(201);
    ownerId = user.body.id;
    const load = writeLoad(120, "terminated");
    for (let round = 0; round < 3; round++) {
      await afterAnswers(3, statuses);
      await terminateBackends();
    }
    await load.done;
    expect(tally(statuses.filter((s) => s !== 201 && s !== 503))).toEqual({});
    for (const answer of refusals) expectUnavailable(answer);
    expect([...apis, worker!].map((p) => p.child.exitCode)).toEqual([null, null, null]);
    await untilReady();
  });

  it("a key revoked while every connection was being cut is refused by both processes on their next request", async () => {
    const doomed = await newKey("read");
    for (const api of apis) expect((await request(api.port, "GET", "/api/v1/users", doomed)).status).toBe(200);
    const dbUrl = new URL(PG_URL!);
    dbUrl.pathname = `/${dbName}`;
    const client = new pg.Client({ connectionString: dbUrl.toString() });
    await client.connect();
    try {
      await client.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
      );
      await client.query("UPDATE api_keys SET revoked_at = now() WHERE key_hash = $1", [hashKey(doomed)]);
    } finally {
      await client.end();
    }
    // A pool may still hold a connection whose termination it has not read yet (a loaded machine): the
    // request on it is a 503 `unavailable` with Retry-After, as any outage answer; the first answer after
    // that must be the revocation, never the key's old access.
    for (const api of apis) {
      let answer = await request(api.port, "GET", "/api/v1/users", doomed);
      for (let tries = 0; answer.status === 503 && tries < 20; tries++) {
        expectUnavailable(answer);
        await new Promise((resolve) => setTimeout(resolve, 100));
        answer = await request(api.port, "GET", "/api/v1/users", doomed);
      }
      expect([answer.status, answer.body.error.message]).toEqual([401, "This API key has been revoked"]);
    }
  });

  it("while the database refuses connections: 503 unavailable with Retry-After everywhere, /readyz says why", async () => {
    const reader = await newKey("read");
    expect((await request(apis[0]!.port, "GET", "/api/v1/users", reader)).status).toBe(200);
    const refusedBefore = refusals.length;
    const load = writeLoad(60, "outage");
    await afterAnswers(2, statuses);
    await admin(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS false`);
    await terminateBackends();
    // pg_terminate_backend only signals: the outage has begun once no backend of the database is left.
    await vi.waitFor(
      async () => {
        const left = await admin(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = '${dbName}' AND backend_type = 'client backend'`,
        );
        expect(left.rows[0].n).toBe(0);
      },
      { timeout: 20_000, interval: 20 },
    );
    for (const api of apis) {
      // A key this process has cached is not trusted while its version cannot be read.
      expectUnavailable(await request(api.port, "GET", "/api/v1/users", reader));
      const ready = await request(api.port, "GET", "/readyz");
      expectUnavailable(ready);
      expect(ready.body.error.message).toMatch(/^The database is unavailable: .*not accepting connections/);
    }
    // The outage lasts until the write load has been refused by both processes.
    await vi.waitFor(() => expect(refusals.length - refusedBefore).toBeGreaterThanOrEqual(4), {
      timeout: 20_000,
      interval: 10,
    });
    await admin(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`);
    await untilReady();
    load.stop();
    await load.done;
    expect(refusals.length).toBeGreaterThan(0);
    expect(tally(statuses.filter((s) => s !== 201 && s !== 503))).toEqual({});
    for (const answer of refusals) expectUnavailable(answer);
    expect((await request(apis[1]!.port, "GET", "/api/v1/users", reader)).status).toBe(200);
    expect([...apis, worker!].map((p) => p.child.exitCode)).toEqual([null, null, null]);
  });

  it("every acknowledged write is readable afterwards, from either process", async () => {
    expect(acknowledged.length).toBeGreaterThan(0);
    // One reader per 90 reads keeps under the per-key limit of 100 a minute.
    const readers = await Promise.all(
      Array.from({ length: Math.ceil(acknowledged.length / 90) }, () => newKey("read")),
    );
    const missing: string[] = [];
    for (const [i, id] of acknowledged.entries()) {
      const answer = await request(apis[i % 2]!.port, "GET", `/api/v1/deals/${id}`, readers[Math.floor(i / 90)]);
      if (answer.status !== 200) missing.push(`${id}: ${answer.status}`);
    }
    expect(missing).toEqual([]);
  });

  it("the request-log rows of the requests refused meanwhile are written once the database is back", async () => {
    const auditor = await newKey("admin");
    const wanted = new Set(refusals.map((r) => r.body.error.request_id as string));
    let attempt = 0;
    // Bounded: each process retries its buffered rows every second.
    await vi.waitFor(
      async () => {
        const logged = new Set<string>();
        const port = apis[attempt++ % 2]!.port;
        for (let page = 1; ; page++) {
          const list = await request(port, "GET", `/api/v1/request-logs?status=503&per_page=100&page=${page}`, auditor);
          expect(list.status).toBe(200);
          for (const row of list.body.data) logged.add(row.id);
          if (list.body.data.length < 100) break;
        }
        expect([...wanted].filter((id) => !logged.has(id))).toEqual([]);
      },
      { timeout: 10_000, interval: 1_000 },
    );
  });
});
