import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../src/api-keys/index.js";
import { type BuiltApp, buildApp } from "../../src/app/build.js";
import { makeCtx, OWNER } from "../../src/context.js";
import type { RequestLog } from "../../src/request-logs/schema.js";
import { freshIp } from "../factories.js";
import { bearer, openTestDb, TEST_ENV, type TestDb } from "../harness.js";

/**
 * #13.6: a secret put in a URL (a key in `?api_key=`, a webhook secret pasted into a filter) never
 * reaches stdout or the request log: secret-looking query parameters, and any value in the API key
 * or `whsec_` formats wherever it appears in the target, are logged as [REDACTED].
 */

const KEY = `cts_live_${"A1b2C3d4".repeat(5)}xyz`;
const TEST_KEY = `cts_test_${"0f".repeat(16)}`;
const WHSEC = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+/Zy=";

const lines: Record<string, unknown>[] = [];
const texts: string[] = [];
const stdout = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split("\n")) {
      if (!line) continue;
      lines.push(JSON.parse(line));
      texts.push(line);
    }
    done();
  },
});

let db: TestDb;
let built: BuiltApp;
let admin = "";

beforeAll(async () => {
  db = await openTestDb();
  built = await buildApp({ db: db.db, pglite: db.pglite, env: TEST_ENV, logger: pino({ level: "info" }, stdout) });
  admin = (await createKey(makeCtx(db.db, TEST_ENV, OWNER), { name: "admin", scope: "admin" })).key;
});

afterAll(async () => {
  await built.app.close();
  await db.dispose();
});

/** Sends `url` without a key (a 401 is logged like any request); returns its row and its stdout line. */
async function logged(url: string): Promise<{ row: string; line: string }> {
  const res = await built.app.inject({ method: "GET", url, remoteAddress: freshIp() });
  const id = res.headers["request-id"] as string;
  await built.requestLog.flush();
  const page = await built.app.inject({
    method: "GET",
    url: `/api/v1/request-logs?per_page=100`,
    headers: bearer(admin),
    remoteAddress: freshIp(),
  });
  const row = (page.json().data as RequestLog[]).find((r) => r.id === id);
  const line = lines.find((l) => l.request_id === id && l.msg === "request");
  expect(row, url).toBeDefined();
  expect(line, url).toBeDefined();
  return { row: row!.path, line: line!.path as string };
}

const SECRET_NAMES = [
  "api_key",
  "apikey",
  "API_KEY",
  "api-key",
  "key",
  "token",
  "access_token",
  "refresh_token",
  "id_token",
  "secret",
  "client_secret",
  "password",
  "passwd",
  "auth",
  "authorization",
  "signature",
  "x_api_key",
  "webhook_secret",
  "db_password",
];

describe("#13.6 secrets in query strings are redacted in the request log and on stdout", () => {
  it.each(SECRET_NAMES)("?%s=… → [REDACTED]", async (name) => {
    const { row, line } = await logged(`/api/v1/users?per_page=5&${name}=hunter2-value&role=rep`);
    const expected = `/api/v1/users?per_page=5&${name}=[REDACTED]&role=rep`;
    expect(row).toBe(expected);
    expect(line).toBe(expected);
  });

  it.each([
    ["an API key under an innocent name", `?q=${KEY}`, "?q=[REDACTED]"],
    ["a key of another environment", `?email=${TEST_KEY}`, "?email=[REDACTED]"],
    ["a key inside a longer value", `?q=prefix-${KEY}-suffix`, "?q=[REDACTED]"],
    ["a percent-encoded key", `?q=${encodeURIComponent(KEY).replace(/_/g, "%5F")}`, "?q=[REDACTED]"],
    ["a webhook secret", `?note=${encodeURIComponent(WHSEC)}`, "?note=[REDACTED]"],
    ["a webhook secret, unencoded", `?note=${WHSEC}`, "?note=[REDACTED]"],
    ["a bare key as a parameter name", `?${KEY}`, "?[REDACTED]"],
    ["a secret name, encoded", "?api%5Fkey=abc", "?api%5Fkey=[REDACTED]"],
    ["a repeated secret parameter", "?token=a&token=b", "?token=[REDACTED]&token=[REDACTED]"],
    ["a secret with an empty value", "?token=", "?token=[REDACTED]"],
  ])("%s", async (_label, query, redacted) => {
    const { row, line } = await logged(`/api/v1/users${query}`);
    expect(row).toBe(`/api/v1/users${redacted}`);
    expect(line).toBe(`/api/v1/users${redacted}`);
  });

  it.each([
    ["an API key as a path segment", `/api/v1/users/${KEY}`, "/api/v1/users/[REDACTED]"],
    [
      "a webhook secret as a path segment",
      `/api/v1/users/${encodeURIComponent(WHSEC)}/x`,
      "/api/v1/users/[REDACTED]/x",
    ],
  ])("%s", async (_label, url, redacted) => {
    const { row, line } = await logged(url);
    expect(row).toBe(redacted);
    expect(line).toBe(redacted);
  });

  it.each([
    ["/api/v1/request-logs?key_id=key_01JD0000000000000000000000&status=200&since=2026-11-01T00:00:00.000Z"],
    ["/api/v1/users?role=rep&active=true&email=ada%40example.com&per_page=5&page=2"],
    ["/api/v1/deals?q=monkey&sort=created_at"],
    ["/api/v1/users"],
  ])("leaves ordinary targets as they are: %s", async (url) => {
    const { row, line } = await logged(url);
    expect(row).toBe(url);
    expect(line).toBe(url);
  });
});

describe("the request's stdout line", () => {
  it("has the row's fields but its time, in the row's order, after pino's own", async () => {
    const res = await built.app.inject({
      method: "GET",
      url: "/api/v1/users?per_page=1",
      headers: { ...bearer(admin), "user-agent": "line-test" },
      remoteAddress: "203.0.113.77",
    });
    const id = res.headers["request-id"] as string;
    const text = texts.find((l) => l.includes(`"request_id":"${id}"`))!;
    const line = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(line)).toEqual([
      "level",
      "time",
      "pid",
      "hostname",
      "request_id",
      "key_id",
      "user_id",
      "method",
      "path",
      "status",
      "duration_ms",
      "client_ip",
      "user_agent",
      "msg",
    ]);
    const { time: _t, pid: _p, hostname: _h, key_id, duration_ms, ...rest } = line;
    expect(rest).toEqual({
      level: 30,
      request_id: id,
      user_id: null,
      method: "GET",
      path: "/api/v1/users?per_page=1",
      status: 200,
      client_ip: "203.0.113.77",
      user_agent: "line-test",
      msg: "request",
    });
    expect(key_id).toMatch(/^key_/);
    expect(typeof duration_ms).toBe("number");
  });
});
