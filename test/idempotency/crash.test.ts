import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ctsEnv, fromTemplate, type RunningServer, startServer } from "../cli/spawn.js";

/**
 * #13.22: a process killed between the commit of an idempotent request and its reply. The retry (on
 * another PostgreSQL process, or on the restarted embedded one) replays the committed response: same
 * deal, `Idempotent-Replayed: true`, no duplicate, never 409 `idempotency_key_in_use` for the dead request.
 */
const PG_URL = process.env.TEST_DATABASE_URL;
const dbName = `cts_crash_${randomBytes(4).toString("hex")}`;
const dataDir = mkdtempSync(join(tmpdir(), "cts-crash-"));
const running: RunningServer[] = [];
let env: NodeJS.ProcessEnv = {};

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** One request on a fresh connection; a connection the server dropped rejects (ECONNRESET / hang up). */
function request(port: number, method: string, path: string, key: string, body?: unknown, idem?: string) {
  return new Promise<Answer>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (payload) headers["content-type"] = "application/json";
    if (idem) headers["idempotency-key"] = idem;
    const req = http.request({ host: "127.0.0.1", port, method, path, headers, agent: false }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
    });
    req.on("error", reject);
    req.end(payload);
  });
}

async function admin(sqlText: string) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(sqlText);
  await client.end();
}

async function start(extra: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startServer({ ...env, ...extra }, ["--no-worker"]);
  running.push(server);
  return server;
}

beforeAll(async () => {
  if (PG_URL) {
    await admin(`CREATE DATABASE ${dbName}`);
    const url = new URL(PG_URL);
    url.pathname = `/${dbName}`;
    env = ctsEnv({ DATABASE_URL: url.toString(), CTS_SECRET_KEY: randomBytes(32).toString("base64"), CTS_ENV: "test" });
  } else {
    env = ctsEnv({ CTS_DATA_DIR: fromTemplate(dataDir), CTS_ENV: "test" });
  }
}, 60_000);

afterAll(async () => {
  for (const s of running) s.child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
  if (PG_URL) await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
});

describe(`#13.22 idempotency survives a SIGKILL between commit and reply (${PG_URL ? "PostgreSQL" : "embedded"})`, () => {
  it("the retry replays the committed deal instead of answering 409 or creating it twice", async () => {
    // The crashing process starts first, so it is the one that creates the bootstrap key.
    const doomed = await start({ CTS_TEST_CRASH_AFTER_COMMIT: "1" });
    const key = /cts_test_[0-9A-Za-z]{43}/.exec(doomed.stderr())![0];
    const survivor = PG_URL ? await start() : undefined;
    // Without an Idempotency-Key the hook is inert: this commits and answers normally.
    const user = await request(doomed.port, "POST", "/api/v1/users", key, {
      name: "Crash Rep",
      email: "c@example.com",
    });
    expect(user.status).toBe(201);
    const deal = {
      opportunity_name: "Crash deal",
      external_id: "crm-crash-1",
      arr_amount: 1000,
      close_date: "2026-11-20",
      owner_id: user.body.id,
    };

    await expect(request(doomed.port, "POST", "/api/v1/deals", key, deal, "crash-1")).rejects.toThrow();
    expect(await doomed.exited).toBeNull(); // killed by a signal, not exited
    const retryOn = survivor ?? (await start()); // embedded: the same data dir, restarted

    const retry = await request(retryOn.port, "POST", "/api/v1/deals", key, deal, "crash-1");
    expect(retry.status).toBe(201);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(retry.body).toMatchObject({ external_id: "crm-crash-1", opportunity_name: "Crash deal", status: "pending" });
    const listed = await request(retryOn.port, "GET", "/api/v1/deals?external_id=crm-crash-1", key);
    expect(listed.body.data.map((d: { id: string }) => d.id)).toEqual([retry.body.id]);
    expect(listed.body.meta.total).toBe(1);
  }, 180_000);
});
