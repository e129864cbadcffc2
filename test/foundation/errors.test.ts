import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, errorOf, uniqueEmail, unknownId } from "../factories.js";
import { bearer, createTestApp, type TestApp } from "../harness.js";

let t: TestApp;
let admin: string;
let write: string;
/** Every error response of this file, checked as a whole at the end. */
const errors: LightMyRequestResponse[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = (await createApiKey(t, "admin")).key;
  write = (await createApiKey(t, "write")).key;
});

afterAll(async () => {
  await t?.close();
});

/** Asserts the contract's error shape and remembers the response for the file-wide checks. */
function expectError(res: LightMyRequestResponse, status: number, code: string) {
  errors.push(res);
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
  const error = errorOf(res);
  expect(error.code).toBe(code);
  expect(error.request_id).toBe(res.headers["request-id"]);
  expect(error.request_id).toMatch(/^req_[0-9A-Z]{26}$/);
  return error;
}

function post(url: string, payload: string | object, headers: Record<string, string> = {}) {
  return t.app.inject({ method: "POST", url, headers: { ...bearer(write), ...headers }, payload });
}

describe("bodies", () => {
  it("malformed JSON → 400 bad_request", async () => {
    const res = await post("/api/v1/users", '{"name": "Ada",', { "content-type": "application/json" });
    const error = expectError(res, 400, "bad_request");
    expect(error.message).toMatch(/^Malformed JSON body/);
  });

  it("JSON with a charset parameter is accepted", async () => {
    const res = await post("/api/v1/users", JSON.stringify({ name: "Ada", email: uniqueEmail() }), {
      "content-type": "application/json; charset=utf-8",
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it("a 2 MiB body → 413 payload_too_large, and the server keeps answering", async () => {
    const big = JSON.stringify({ name: "x".repeat(2 * 1024 * 1024), email: uniqueEmail() });
    const res = await post("/api/v1/users", big, { "content-type": "application/json" });
    const error = expectError(res, 413, "payload_too_large");
    expect(error.message).toBe("Request body is larger than 1 MiB");
    const health = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: "ok" });
  });

  it("1 MiB is the limit: one byte over → 413, exactly 1 MiB is read (and validated)", async () => {
    const sized = (bytes: number) => {
      const shell = JSON.stringify({ name: "", email: "a@example.com" });
      return JSON.stringify({ name: "x".repeat(bytes - shell.length), email: "a@example.com" });
    };
    expectError(
      await post("/api/v1/users", sized(1024 * 1024 + 1), { "content-type": "application/json" }),
      413,
      "payload_too_large",
    );
    const atLimit = await post("/api/v1/users", sized(1024 * 1024), { "content-type": "application/json" });
    expectError(atLimit, 422, "validation_error");
  });

  it("a text/plain body → 415 unsupported_media_type", async () => {
    const res = await post("/api/v1/users", "name=Ada", { "content-type": "text/plain" });
    const error = expectError(res, 415, "unsupported_media_type");
    expect(error.message).toContain("text/plain");
  });

  it("a form body → 415", async () => {
    const res = await post("/api/v1/users", "name=Ada&email=a%40example.com", {
      "content-type": "application/x-www-form-urlencoded",
    });
    expectError(res, 415, "unsupported_media_type");
  });

  it("a body without a Content-Type → 415", async () => {
    const res = await post("/api/v1/users", "hello");
    expectError(res, 415, "unsupported_media_type");
  });

  describe("an action with an empty body means {}", () => {
    async function revoke(headers: Record<string, string>, payload?: string) {
      const key = await createApiKey(t, "read");
      const res = await t.app.inject({
        method: "POST",
        url: `/api/v1/api-keys/${key.id}/revoke`,
        headers: { ...bearer(admin), ...headers },
        ...(payload !== undefined ? { payload } : {}),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().revoked_at).not.toBeNull();
    }

    it("no body and no Content-Type → 200", () => revoke({}));
    it("Content-Type: text/plain and an empty body → 200", () => revoke({ "content-type": "text/plain" }, ""));
    it("Content-Type: application/json and an empty body → 200", () =>
      revoke({ "content-type": "application/json" }, ""));
    it("a body of {} → 200", () => revoke({ "content-type": "application/json" }, "{}"));

    it("rotate with no body uses the defaults (grace 0)", async () => {
      const key = await createApiKey(t, "read");
      const res = await t.app.inject({
        method: "POST",
        url: `/api/v1/api-keys/${key.id}/rotate`,
        headers: { ...bearer(admin), "content-type": "text/plain" },
        payload: "",
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().replaces).toBe(key.id);
    });

    it("a non-empty text/plain body on an action is still 415", async () => {
      const key = await createApiKey(t, "read");
      const res = await t.app.inject({
        method: "POST",
        url: `/api/v1/api-keys/${key.id}/revoke`,
        headers: { ...bearer(admin), "content-type": "text/plain" },
        payload: "please",
      });
      expectError(res, 415, "unsupported_media_type");
    });
  });
});

describe("strict input", () => {
  it("an unknown body field → 422 naming it", async () => {
    const res = await post("/api/v1/users", { name: "Ada", email: uniqueEmail(), nickname: "A" });
    const error = expectError(res, 422, "validation_error");
    expect(error.details).toEqual([{ param: "nickname", message: "is not a recognized field" }]);
    expect(error.message).toContain("nickname");
  });

  it("read-only fields (id, created_at) → 422 'is read-only', one detail each", async () => {
    const res = await post("/api/v1/users", {
      id: "usr_mine",
      name: "Ada",
      email: uniqueEmail(),
      created_at: "2026-01-01T00:00:00.000Z",
    });
    const error = expectError(res, 422, "validation_error");
    expect(error.details).toEqual([
      { param: "id", message: "is read-only and cannot be set" },
      { param: "created_at", message: "is read-only and cannot be set" },
    ]);
  });

  it("several problems at once → one detail per problem", async () => {
    const res = await post("/api/v1/users", { name: "", email: "nope", role: "emperor" });
    const error = expectError(res, 422, "validation_error");
    expect(error.details?.map((d) => d.param).sort()).toEqual(["email", "name", "role"]);
  });

  it("an unknown query parameter → 422 naming it", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/users?colour=red", headers: bearer(write) });
    const error = expectError(res, 422, "validation_error");
    expect(error.details).toEqual([{ param: "colour", message: "is not a recognized query parameter" }]);
  });

  it.each([
    ["per_page=0", "per_page", "must be at least 1"],
    ["per_page=101", "per_page", "must be at most 100"],
    ["page=0", "page", "must be at least 1"],
    ["per_page=2.5", "per_page", "must be a whole number written in digits"],
  ])("%s → 422", async (query, param, message) => {
    const res = await t.app.inject({ method: "GET", url: `/api/v1/users?${query}`, headers: bearer(write) });
    const error = expectError(res, 422, "validation_error");
    expect(error.details).toEqual([{ param, message }]);
  });

  it.each(["per_page=1", "per_page=100"])("%s is accepted", async (query) => {
    const res = await t.app.inject({ method: "GET", url: `/api/v1/users?${query}`, headers: bearer(write) });
    expect(res.statusCode).toBe(200);
  });

  it("a NUL character in a body field → 422 naming the field, never a database error", async () => {
    const res = await post("/api/v1/users", { name: "Ada\u0000", email: uniqueEmail() });
    const error = expectError(res, 422, "validation_error");
    expect(error.details).toEqual([{ param: "name", message: "must not contain the NUL character (\\u0000)" }]);
  });

  it("a NUL character in a path id or a query filter → 422", async () => {
    const byId = await t.app.inject({ method: "GET", url: "/api/v1/users/usr_%00", headers: bearer(write) });
    expect(expectError(byId, 422, "validation_error").details?.[0]?.param).toBe("id");
    const filter = await t.app.inject({ method: "GET", url: "/api/v1/users?email=a%00b", headers: bearer(write) });
    expect(expectError(filter, 422, "validation_error").details?.[0]?.param).toBe("email");
  });

  it("a URL that cannot be decoded → 400 with the contract's body and a Request-Id", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/users/%ff", headers: bearer(write) });
    expectError(res, 400, "bad_request");
  });
});

describe("every error", () => {
  it("404 and 405 have the contract's body too", async () => {
    expectError(await t.app.inject({ method: "GET", url: "/nowhere", headers: bearer(write) }), 404, "not_found");
    expectError(
      await t.app.inject({ method: "GET", url: `/api/v1/users/${unknownId("usr")}`, headers: bearer(write) }),
      404,
      "not_found",
    );
    expectError(
      await t.app.inject({ method: "DELETE", url: "/api/v1/users", headers: bearer(write) }),
      405,
      "method_not_allowed",
    );
    expectError(await t.app.inject({ method: "GET", url: "/api/v1/users" }), 401, "unauthorized");
  });

  it("carries request_id = Request-Id and no stack trace or SQL", async () => {
    // Everything this file collected, plus a few of its own so the check stands when run alone.
    const own = [
      await post("/api/v1/users", "{", { "content-type": "application/json" }),
      await post("/api/v1/users", { name: "A\u0000", email: "x@example.com" }),
      await t.app.inject({ method: "GET", url: "/api/v1/users/%ff", headers: bearer(write) }),
      await t.app.inject({ method: "GET", url: `/api/v1/users/${"u".repeat(201)}`, headers: bearer(write) }),
    ];
    for (const res of [...errors, ...own]) {
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(errorOf(res).request_id).toBe(res.headers["request-id"]);
      expect(res.body).not.toMatch(/\bat .+:\d+:\d+|node_modules|\/src\/|\.ts\b|\.js\b/);
      expect(res.body).not.toMatch(/\b(SELECT|INSERT|UPDATE|DELETE FROM|relation|constraint|syntax error)\b/i);
      expect(Object.keys(res.json())).toEqual(["error"]);
      expect(Object.keys(errorOf(res)).sort()).toEqual(
        errorOf(res).details ? ["code", "details", "message", "request_id"] : ["code", "message", "request_id"],
      );
    }
  });

  it("Request-Id is on successful responses and /healthz too, fresh each time", async () => {
    const a = await t.app.inject({ method: "GET", url: "/healthz", headers: { "request-id": "req_spoofed" } });
    const b = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(a.headers["request-id"]).toMatch(/^req_[0-9A-Z]{26}$/);
    expect(b.headers["request-id"]).toMatch(/^req_[0-9A-Z]{26}$/);
    expect(a.headers["request-id"]).not.toBe(b.headers["request-id"]);
  });
});
