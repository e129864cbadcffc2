import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ctsEnv, type RunningServer, startServer } from "../cli/spawn.js";

/**
 * API.md §11's "more than 10 failures for one email within 15 minutes → 429", held exactly by two real
 * API processes sharing PostgreSQL (and Redis): each process counts its argon2 verifications on
 * /metrics (`cts_password_verifications_total`), so the test sees every verification of both.
 */
const PG_URL = process.env.TEST_DATABASE_URL;
const dbName = `cts_logins_${randomBytes(4).toString("hex")}`;
const PASSWORD = "Harbour-Lantern-Quietly-52";
let env: NodeJS.ProcessEnv = {};
let bootstrap = "";
let redis: ChildProcess | undefined;
const running: RunningServer[] = [];

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

interface Api {
  server: RunningServer;
  metricsPort: number;
}

/** Two `cts serve` processes of one deployment, each with its own metrics port. */
async function twoProcesses(extra: Record<string, string> = {}): Promise<Api[]> {
  const ports = [await freePort(), await freePort()];
  const servers = await Promise.all(
    ports.map((metricsPort) =>
      startServer({ ...env, ...extra, CTS_METRICS_PORT: String(metricsPort) }, ["--no-worker"]),
    ),
  );
  running.push(...servers);
  return servers.map((server, i) => ({ server, metricsPort: ports[i]! }));
}

async function call(api: Api, method: string, path: string, body?: unknown, key?: string) {
  const res = await fetch(`http://127.0.0.1:${api.server.port}/api/v1${path}`, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: text ? JSON.parse(text) : null };
}

/** The sum of both processes' argon2 verifications so far. */
async function verifications(apis: Api[]): Promise<number> {
  let total = 0;
  for (const api of apis) {
    const text = await (await fetch(`http://127.0.0.1:${api.metricsPort}/metrics`)).text();
    const line = text.split("\n").find((l) => l.startsWith("cts_password_verifications_total "));
    total += Number(line?.split(" ")[1] ?? Number.NaN);
  }
  return total;
}

/** A person who signs in with PASSWORD: created and invited by the admin key, the invitation accepted. */
async function person(api: Api): Promise<string> {
  const email = `burst-${randomBytes(4).toString("hex")}@example.com`;
  const user = await call(api, "POST", "/users", { name: "Burst Target", email }, bootstrap);
  expect(user.status, JSON.stringify(user.body)).toBe(201);
  const invitation = await call(api, "POST", `/users/${user.body.id}/invitations`, {}, bootstrap);
  expect(invitation.status).toBe(201);
  const token = String(invitation.body.url).split("#")[1];
  const accepted = await call(api, "POST", "/auth/invitations/accept", { token, password: PASSWORD });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return email;
}

/** 60 wrong passwords at once over both processes: exactly 10 verified (401), the other 50 refused (429). */
async function burst(apis: Api[]): Promise<void> {
  const email = await person(apis[0]!);
  const before = await verifications(apis);
  const answers = await Promise.all(
    Array.from({ length: 60 }, (_, i) =>
      call(apis[i % 2]!, "POST", "/auth/login", { email, password: `wrong guess ${i}` }),
    ),
  );
  expect(await verifications(apis)).toBe(before + 10);
  expect(answers.filter((a) => a.status === 401)).toHaveLength(10);
  const refused = answers.filter((a) => a.status === 429);
  expect(refused).toHaveLength(50);
  for (const a of refused) {
    expect(a.body.error.code).toBe("rate_limited");
    expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
  }
  // Limited, the right password is refused too, and not verified.
  const right = await call(apis[1]!, "POST", "/auth/login", { email, password: PASSWORD });
  expect([right.status, await verifications(apis)]).toEqual([429, before + 10]);
}

beforeAll(async () => {
  if (!PG_URL) return;
  await admin(`CREATE DATABASE ${dbName}`);
  const dbUrl = new URL(PG_URL);
  dbUrl.pathname = `/${dbName}`;
  env = ctsEnv({
    DATABASE_URL: dbUrl.toString(),
    CTS_SECRET_KEY: randomBytes(32).toString("base64"),
    CTS_ENV: "test",
  });
}, 60_000);

afterAll(async () => {
  for (const p of running) p.child.kill("SIGKILL");
  redis?.kill("SIGKILL");
  if (PG_URL) await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
});

describe.skipIf(!PG_URL)("#26 the per-email sign-in limit across two API processes", () => {
  it("rate limits in PostgreSQL: 60 parallel wrong passwords → exactly 10 verifications", async () => {
    const apis = await twoProcesses();
    const banners = apis.map((a) => /cts_test_[0-9A-Za-z]{43}/.exec(a.server.stderr())?.[0]).filter(Boolean);
    expect(banners).toHaveLength(1);
    bootstrap = banners[0]!;
    await burst(apis);
    for (const api of apis) api.server.child.kill("SIGKILL");
  }, 120_000);

  it("rate limits in Redis: the same, exactly", async () => {
    const port = await freePort();
    redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: "ignore",
    });
    const apis = await twoProcesses({ REDIS_URL: `redis://127.0.0.1:${port}` });
    await burst(apis);
    const logs = apis.map((a) => a.server.stdout()).join("");
    expect(logs).not.toContain("Redis unreachable");
  }, 120_000);
});
