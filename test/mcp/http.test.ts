import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app/build.js";
import type { App } from "../../src/http/types.js";
import { createApiKey, createUser, errorOf, parseErrorBody } from "../factories.js";
import { bearer, createTestApp, TEST_ENV, type TestApp } from "../harness.js";
import { listen, post } from "./client.js";

const LIST = { jsonrpc: "2.0", id: 1, method: "tools/list" };
const POLICY = '"per-key";q=100;w=60';

let t: TestApp;
let origin: string;
let userUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  origin = await listen(t);
  userUrl = `/api/v1/users/${(await createUser(t)).id}`;
});

afterAll(async () => {
  await t?.close();
});

async function errorBody(res: Response) {
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const error = parseErrorBody(await res.json());
  expect(error.request_id).toBe(res.headers.get("request-id"));
  return error;
}

describe("POST /mcp over HTTP", () => {
  it("answers JSON with the contract headers the pipeline set before the transport took over", async () => {
    const key = await createApiKey(t, "read");
    const res = await post(origin, LIST, bearer(key.key));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("request-id")).toMatch(/^req_/);
    expect(res.headers.get("ratelimit-policy")).toBe(POLICY);
    expect(res.headers.get("ratelimit")).toBe('"per-key";r=99;t=0');
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
    const body = (await res.json()) as { id: number; result: { tools: { name: string }[] } };
    expect(body.id).toBe(1);
    expect(body.result.tools.map((tool) => tool.name)).toContain("list_users");
  });

  it("is written to the request log with the key and the real status", async () => {
    const key = await createApiKey(t, "read");
    const res = await post(origin, LIST, bearer(key.key));
    await t.requestLog.flush();
    const rows = await t.db.db.selectFrom("request_logs").selectAll().where("key_id", "=", key.id).execute();
    expect(rows.map((r) => [r.id, r.method, r.path, r.status])).toEqual([
      [res.headers.get("request-id"), "POST", "/mcp", 200],
    ]);
  });

  it("shares the key's rate limit with REST, and refuses with 429 once it is spent", async () => {
    const key = await createApiKey(t, "read");
    const rest = () => t.app.inject({ url: userUrl, headers: bearer(key.key) });
    expect((await rest()).headers.ratelimit).toBe('"per-key";r=99;t=0');
    expect((await post(origin, LIST, bearer(key.key))).headers.get("ratelimit")).toBe('"per-key";r=98;t=0');
    expect((await rest()).headers.ratelimit).toBe('"per-key";r=97;t=0');
    for (let i = 0; i < 97; i++) await rest();
    const refused = await post(origin, LIST, bearer(key.key));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await errorBody(refused)).code).toBe("rate_limited");
  });

  it("needs a key: 401 with WWW-Authenticate", async () => {
    const res = await post(origin, LIST);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await errorBody(res)).code).toBe("unauthorized");
  });

  it("GET and DELETE get 405 with Allow: POST (no SSE stream, no sessions)", async () => {
    const key = await createApiKey(t, "read");
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(new URL("/mcp", origin), { method, headers: bearer(key.key) });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect((await errorBody(res)).code).toBe("method_not_allowed");
    }
  });

  it("refuses JSON-RPC batches: each message must count toward the rate limit", async () => {
    const key = await createApiKey(t, "read");
    const res = await post(origin, [LIST, { ...LIST, id: 2 }], bearer(key.key));
    expect(res.status).toBe(400);
    expect(await errorBody(res)).toMatchObject({ code: "bad_request" });
  });
});

describe("Origin", () => {
  it("absent or the service's own origin (here the listen address) is fine; any other → 403 forbidden", async () => {
    const key = await createApiKey(t, "read");
    expect((await post(origin, LIST, { ...bearer(key.key), origin })).status).toBe(200);
    for (const foreign of ["https://evil.example", "null", "http://127.0.0.1:1"]) {
      const res = await post(origin, LIST, { ...bearer(key.key), origin: foreign });
      expect(res.status).toBe(403);
      const error = await errorBody(res);
      expect(error.code).toBe("forbidden");
      expect(error.message).toContain(`Origin ${foreign} may not use /mcp`);
    }
  });

  describe("with CTS_PUBLIC_URL", () => {
    let app: App;
    beforeAll(async () => {
      app = (await buildApp({ db: t.db.db, env: TEST_ENV, publicUrl: "https://cts.example.com" })).app;
    });
    afterAll(async () => {
      await app?.close();
    });

    it("accepts its origin, and not the request's own (API.md §20 (d)) nor anything else", async () => {
      const key = await createApiKey(t, "read");
      const send = (o: string) =>
        app.inject({
          method: "POST",
          url: "/mcp",
          headers: {
            ...bearer(key.key),
            origin: o,
            accept: "application/json, text/event-stream",
            host: "10.0.0.5:8080",
          },
          payload: LIST,
        });
      expect((await send("https://cts.example.com")).statusCode).toBe(200);
      expect((await send("https://CTS.example.com:443")).statusCode).toBe(200);
      for (const foreign of ["http://10.0.0.5:8080", "https://cts.example.com.evil.example"]) {
        const res = await send(foreign);
        expect([res.statusCode, errorOf(res).code], foreign).toEqual([403, "forbidden"]);
      }
    });
  });
});
