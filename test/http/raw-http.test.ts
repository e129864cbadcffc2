import type { AddressInfo } from "node:net";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createKey } from "../../src/api-keys/index.js";
import { type BuiltApp, buildApp } from "../../src/app/build.js";
import { STATIC_SECURITY_HEADERS } from "../../src/app/security-headers.js";
import { loadConfig } from "../../src/config.js";
import { makeCtx, OWNER } from "../../src/context.js";
import { openTestDb, TEST_ENV, type TestDb } from "../harness.js";
import { contractError, type RawResponse, rawExchange, streamBody } from "./raw-client.js";

/** What the server does with requests Node's HTTP layer refuses or that never finish, on a real socket. */

let db: TestDb;
let built: BuiltApp;
let port: number;
let key: string;
const logLines: { level: number; msg: string; request_id?: string; status?: number }[] = [];

beforeAll(async () => {
  db = await openTestDb();
  // The timeout comes through config, as in production: 1 s keeps the file fast.
  const config = loadConfig({ CTS_REQUEST_TIMEOUT: "1" });
  const logger = pino({ level: "info" }, { write: (line: string) => logLines.push(JSON.parse(line)) });
  built = await buildApp({ db: db.db, env: TEST_ENV, logger, requestTimeoutSeconds: config.requestTimeoutSeconds });
  await built.app.listen({ port: 0, host: "127.0.0.1" });
  port = (built.app.server.address() as AddressInfo).port;
  key = (await createKey(makeCtx(db.db, TEST_ENV, OWNER), { name: "raw", scope: "write" })).key;
});

afterAll(async () => {
  await built?.app.close();
  await db?.dispose();
});

/** The request-log row of `id`, once the writer has flushed it (bounded). */
async function logRow(id: string) {
  await built.requestLog.flush();
  return db.db
    .selectFrom("request_logs")
    .select(["id", "method", "path", "status"])
    .where("id", "=", id)
    .executeTakeFirst();
}

/** Waits (bounded) until a log line matches; fails the test if none does. */
function logLine(match: (line: (typeof logLines)[number]) => boolean) {
  return vi.waitFor(
    () => {
      const found = logLines.find(match);
      if (!found) throw new Error("no such log line");
      return found;
    },
    { timeout: 10_000, interval: 20 },
  );
}

const expectNoErrorLines = () => expect(logLines.filter((l) => l.level >= 50).map((l) => l.msg)).toEqual([]);

const auth = () => `Authorization: Bearer ${key}\r\n`;

describe("#13.5 requests Node's HTTP parser refuses get the contract body and a Request-Id", () => {
  const WARN = 40;
  const INFO = 30;
  const cases: [string, () => string, number, string, string, string, number][] = [
    [
      "Content-Length and Transfer-Encoding together (request smuggling framing)",
      () =>
        "POST /api/v1/users HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      400,
      "bad_request",
      "POST",
      "/api/v1/users",
      WARN,
    ],
    [
      "two different Content-Length values",
      () => "POST /api/v1/users HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
      400,
      "bad_request",
      "POST",
      "/api/v1/users",
      WARN,
    ],
    [
      "headers over Node's 16 KiB limit",
      () => `GET /api/v1/users HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
      431,
      "headers_too_large",
      "GET",
      "/api/v1/users",
      WARN,
    ],
    [
      "a control character in a header value",
      () => "GET /api/v1/users HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n",
      400,
      "bad_request",
      "GET",
      "/api/v1/users",
      WARN,
    ],
    [
      "a space inside a header name",
      () => "GET /api/v1/users HTTP/1.1\r\nHost: x\r\nX Bad: 1\r\n\r\n",
      400,
      "bad_request",
      "GET",
      "/api/v1/users",
      WARN,
    ],
    ["a request line that is not HTTP", () => "HELLO\r\n\r\n", 400, "bad_request", "", "", WARN],
    [
      "#13.6 a key in the path of a request refused before Fastify saw it (redacted in row and line)",
      () => "GET /api/v1/deals/cts_test_0123456789abcdefghijklmnopqrstuvwxyzABCDEF HTTP/1.1\r\nX Bad: 1\r\n\r\n",
      400,
      "bad_request",
      "GET",
      "/api/v1/deals/[REDACTED]",
      WARN,
    ],
    [
      "bad chunked encoding after valid headers",
      () =>
        `POST /api/v1/users HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      400,
      "bad_request",
      "POST",
      "/api/v1/users",
      INFO,
    ],
  ];

  it.each(cases)("%s", async (_name, bytes, status, code, method, path, level) => {
    const res = await rawExchange(port, bytes());
    const error = contractError(res, status, code);
    expect(res!.headers.connection).toBe("close");
    // #13.7: the security headers are on these replies too, though no Fastify hook wrote them.
    for (const [name, value] of Object.entries(STATIC_SECURITY_HEADERS)) {
      expect(res!.headers[name.toLowerCase()], name).toBe(value);
    }
    // Refused before Fastify saw it: a warn line; a request Fastify was reading: its usual line (info).
    const line = await logLine((l) => l.request_id === error.request_id);
    expect([line.level, line.status]).toEqual([level, status]);
    expect((line as { path?: string }).path ?? "").toBe(path);
    const row = await logRow(error.request_id);
    expect(row).toEqual({ id: error.request_id, method, path, status });
    expectNoErrorLines();
  });
});

describe("#13.1 #13.6 a URL Fastify cannot decode is still logged (row and warn line), secrets redacted", () => {
  it("GET /api/v1/deals/%zz?token=… → 400 bad_request with a request-log row and a warn line", async () => {
    const secret = "cts_test_0123456789abcdefghijklmnopqrstuvwxyzABCDEF";
    const res = await rawExchange(
      port,
      `GET /api/v1/deals/%zz?token=${secret} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    const error = contractError(res, 400, "bad_request");
    const line = await logLine((l) => l.request_id === error.request_id);
    expect([line.level, line.status]).toEqual([40, 400]);
    expect(JSON.stringify(line)).not.toContain(secret);
    const row = await logRow(error.request_id);
    expect(row).toEqual({
      id: error.request_id,
      method: "GET",
      path: "/api/v1/deals/%zz?token=[REDACTED]",
      status: 400,
    });
  });
});

describe("#13.3 CTS_REQUEST_TIMEOUT bounds how long a request may take to arrive", () => {
  it("Content-Length 1000 with 8 bytes sent → 408 request_timeout, a request-log row and a warn line", async () => {
    const head = `POST /api/v1/users HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
    const res = await rawExchange(port, `${head}{"name":`);
    const error = contractError(res, 408, "request_timeout");
    expect(res!.headers.connection).toBe("close");
    expect(await logRow(error.request_id)).toEqual({
      id: error.request_id,
      method: "POST",
      path: "/api/v1/users",
      status: 408,
    });
    const line = await logLine((l) => l.request_id === error.request_id);
    expect([line.level, line.status]).toEqual([40, 408]);
    expectNoErrorLines();
  });

  it("headers that never end → 408 request_timeout with the contract body", async () => {
    const res = await rawExchange(port, "GET /api/v1/users HTTP/1.1\r\nHost: x\r\n");
    const error = contractError(res, 408, "request_timeout");
    const line = await logLine((l) => l.request_id === error.request_id);
    expect([line.level, line.status]).toEqual([40, 408]);
    expectNoErrorLines();
  });

  it("a client that goes away mid-body → a 499 row and a warn line, never an error", async () => {
    const marker = "/api/v1/users?gone=mid-body";
    const head = `POST ${marker} HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
    const { connect } = await import("node:net");
    await new Promise<void>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => socket.write(`${head}{"name":`));
      // Gone once the server has the request in hand (its headers parsed, the body still owed).
      built.app.server.once("request", () => socket.destroy());
      socket.on("close", () => resolve());
    });
    const line = await logLine((l) => (l as { path?: string }).path === marker);
    expect([line.level, line.status]).toEqual([40, 499]);
    expect(await logRow(line.request_id!)).toEqual({ id: line.request_id, method: "POST", path: marker, status: 499 });
    expectNoErrorLines();
  });

  it("the server still answers normally afterwards", async () => {
    const res = (await rawExchange(
      port,
      "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )) as RawResponse;
    expect([res.status, JSON.parse(res.body)]).toEqual([200, { status: "ok" }]);
  });
});

describe("#13.16 a body over 1 MiB streamed by node:http gets the 413, not EPIPE", () => {
  const bodies: [string, Record<string, string>][] = [
    ["with Content-Length", { "content-length": String(2 * 1024 * 1024) }],
    ["chunked", { "transfer-encoding": "chunked" }],
  ];
  it.each(bodies)("2 MiB %s → 413 payload_too_large received in full", async (_name, framing) => {
    const res = await streamBody(port, "/api/v1/users", 2 * 1024 * 1024, {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      ...framing,
    });
    expect(res.status).toBe(413);
    const body = JSON.parse(res.body);
    expect(body.error.code).toBe("payload_too_large");
    expect(body.error.request_id).toBe(res.headers["request-id"]);
    expectNoErrorLines();
  });
});
