import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import { createServer } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ctsEnv, type RunningServer, startServer, startWorker } from "../cli/spawn.js";

/**
 * Two API processes and two workers on one PostgreSQL, with a Redis of the test's own: one
 * service to its clients. Needs real PostgreSQL and a redis-server binary.
 */
const PG_URL = process.env.TEST_DATABASE_URL;
const dbName = `cts_cluster_${randomBytes(4).toString("hex")}`;
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
let redis: ChildProcess | undefined;
let redisPort = 0;
const apis: RunningServer[] = [];
const workers: RunningServer[] = [];
let env: NodeJS.ProcessEnv = {};
const received: { id: string; type: string }[] = [];
let receiver: http.Server | undefined;
let receiverUrl = "";
let bootstrap = "";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function admin(sqlText: string) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(sqlText);
  await client.end();
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

function request(port: number, method: string, path: string, key: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent,
        headers: { authorization: `Bearer ${key}`, ...(payload ? { "content-type": "application/json" } : {}) },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : null }),
        );
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** What a load balancer does: on a refused or reset connection, try the next process. Nothing else is retried. */
async function balanced(i: number, path: string, key: string): Promise<Answer> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = apis[(i + attempt) % apis.length]!.port;
    try {
      return await request(port, "GET", path, key);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "ECONNREFUSED" && code !== "ECONNRESET") throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error("no API process answered");
}

async function newKey(scope: string): Promise<string> {
  const res = await request(apis[0]!.port, "POST", "/api/v1/api-keys", bootstrap, { name: `cluster ${scope}`, scope });
  expect(res.status).toBe(201);
  return res.body.key;
}

beforeAll(async () => {
  if (!PG_URL) return;
  await admin(`CREATE DATABASE ${dbName}`);
  redisPort = await freePort();
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ id: String(req.headers["webhook-id"]), type: JSON.parse(body).type });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver!.listen(0, "127.0.0.1", () => r()));
  const receiverPort = (receiver.address() as { port: number }).port;
  redis = spawn(
    "redis-server",
    ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  const dbUrl = new URL(PG_URL);
  dbUrl.pathname = `/${dbName}`;
  env = ctsEnv({
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    CTS_SECRET_KEY: randomBytes(32).toString("base64"),
    CTS_ENV: "test",
    CTS_SHUTDOWN_TIMEOUT: "10",
    CTS_WEBHOOK_ALLOW_HOSTS: `127.0.0.1:${receiverPort}`,
    CTS_WEBHOOK_ALLOW_HTTP: "1",
  });
  receiverUrl = `http://127.0.0.1:${receiverPort}/hooks`;
  // All four start at once: migrations and the bootstrap key happen once, under the advisory lock.
  const started = await Promise.all([
    startServer(env, ["--no-worker"]),
    startServer(env, ["--no-worker"]),
    startWorker(env),
    startWorker(env),
  ]);
  apis.push(started[0], started[1]);
  workers.push(started[2], started[3]);
  const banners = started.map((s) => /cts_test_[0-9A-Za-z]{43}/.exec(s.stderr())?.[0]).filter(Boolean);
  expect(banners).toHaveLength(1);
  bootstrap = banners[0]!;
}, 180_000);

afterAll(async () => {
  for (const p of [...apis, ...workers]) p.child.kill("SIGKILL");
  redis?.kill("SIGKILL");
  receiver?.close();
  agent.destroy();
  if (PG_URL) await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
});

describe.skipIf(!PG_URL)("two API processes and two workers as one service", () => {
  it("150 requests with one key over both processes: exactly 100 succeed", async () => {
    const key = await newKey("read");
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, i) => request(apis[i % 2]!.port, "GET", "/api/v1/users", key)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(100);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(50);
    expect(refused.every((a) => Number(a.headers["retry-after"]) >= 1 && a.body.error.code === "rate_limited")).toBe(
      true,
    );
  });

  it("a rolling restart under load: zero failed requests at a client that retries only refused/reset connections", async () => {
    const keys = await Promise.all([newKey("read"), newKey("read"), newKey("read")]);
    const victim = apis[1]!;
    let stop = false;
    const statuses: number[] = [];
    const load = (async () => {
      let i = 0;
      while (!stop && i < 270) {
        const batch = Array.from({ length: 6 }, () => balanced(i++, "/api/v1/users", keys[i % 3]!));
        for (const a of await Promise.all(batch)) statuses.push(a.status);
      }
    })();
    // The restart begins under load: once a few batches have been answered.
    await vi.waitFor(() => expect(statuses.length).toBeGreaterThanOrEqual(18), { timeout: 20_000, interval: 10 });
    victim.child.kill("SIGTERM");
    expect(await victim.exited).toBe(0);
    apis[1] = await startServer(env, ["--no-worker"]);
    stop = true;
    await load;
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect((await request(apis[1]!.port, "GET", "/api/v1/users", keys[0]!)).status).toBe(200);
  });

  it("an approval's event is delivered once across both workers", async () => {
    const admin = await newKey("admin");
    const sub = await request(apis[0]!.port, "POST", "/api/v1/webhook-subscriptions", admin, {
      url: receiverUrl,
      events: ["deal.approved"],
    });
    expect(sub.status).toBe(201);
    const user = await request(apis[1]!.port, "POST", "/api/v1/users", admin, {
      name: "Cluster Rep",
      email: "cluster@example.com",
    });
    const deal = await request(apis[0]!.port, "POST", "/api/v1/deals", admin, {
      opportunity_name: "Cluster deal",
      arr_amount: 1000,
      close_date: "2026-11-20",
      owner_id: user.body.id,
    });
    expect(deal.status).toBe(201);
    const approved = await request(apis[1]!.port, "POST", `/api/v1/deals/${deal.body.id}/approve`, admin);
    expect(approved.status).toBe(200);
    await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 10_000, interval: 100 });
    await new Promise((r) => setTimeout(r, 1500)); // time for a duplicate to show up, if there were one
    expect(received.map((r) => r.type)).toEqual(["deal.approved"]);
    const deliveries = await request(
      apis[0]!.port,
      "GET",
      `/api/v1/webhook-subscriptions/${sub.body.id}/deliveries`,
      admin,
    );
    expect(deliveries.body.data).toHaveLength(1);
    expect(deliveries.body.data[0].status).toBe("succeeded");
    expect(deliveries.body.data[0].attempts).toHaveLength(1);
    expect(deliveries.body.data[0].event_id).toBe(received[0]!.id);
  });

  it("Redis stopped mid-run: the service keeps answering and limits stay exact through PostgreSQL", async () => {
    const key = await newKey("read");
    const before = await Promise.all(
      Array.from({ length: 40 }, (_, i) => request(apis[i % 2]!.port, "GET", "/api/v1/users", key)),
    );
    expect(before.every((a) => a.status === 200)).toBe(true);
    const redisGone = new Promise((resolve) => redis!.once("exit", resolve));
    redis!.kill("SIGKILL");
    await redisGone;
    const fresh = await newKey("read");
    const after = await Promise.all(
      Array.from({ length: 150 }, (_, i) => request(apis[i % 2]!.port, "GET", "/api/v1/users", fresh)),
    );
    expect(after.filter((a) => a.status === 200)).toHaveLength(100);
    expect(after.filter((a) => a.status === 429)).toHaveLength(50);
    const logs = apis.map((a) => a.stdout()).join("");
    expect(logs).toContain("Redis unreachable: rate limits now kept in PostgreSQL");
  });

  it("workers stop gracefully on SIGTERM", async () => {
    for (const w of workers) w.child.kill("SIGTERM");
    expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0]);
  });
});
