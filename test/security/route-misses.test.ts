import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshIp } from "../factories.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";
import { expectContractError, urlOf } from "../input/operations.js";
import { type Operation, operations } from "../route-case.js";

/**
 * API.md §2's order puts 404 (unknown route) and 405 (known path, wrong method) before 413/415/400 and
 * 422: a request to a route that does not exist is answered as such, whatever its body or headers, and
 * an Idempotency-Key sent with it stores nothing. Generated from the route table (the served document),
 * so a new route is covered by itself; ids as long as the contract allows (255) included.
 */

const t: TestApp = await createTestApp({ clock: new TestClock() });
let key = "";
let ops: Operation[] = [];

beforeAll(async () => {
  key = (await t.key("admin")).key;
  ops = await operations(t);
});
afterAll(async () => t.close());

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Bodies that would each be refused (415, 400, 422) if the route existed. */
const BAD_BODIES: [string, Record<string, string>, string][] = [
  ["text/plain", { "content-type": "text/plain" }, "hello"],
  ["malformed JSON", { "content-type": "application/json" }, "{"],
  ["a literal null", { "content-type": "application/json" }, "null"],
  ["a NUL character", { "content-type": "application/json" }, '{"a":"\\u0000"}'],
  ["a lone surrogate", { "content-type": "application/json" }, '{"a":"\\ud800"}'],
];

/** Does a declared route of this method match the URL (a parametric one included)? */
function routed(method: string, url: string): boolean {
  const path = url.split("?")[0]!;
  return ops.some((op) => op.method === method && new RegExp(`^${op.path.replace(/\{\w+\}/g, "[^/]+")}$`).test(path));
}

async function send(method: string, url: string, headers: Record<string, string>, payload?: string) {
  t.clock!.advance(1000); // a second per request keeps the key under its 100-per-minute limit
  return t.app.inject({
    method: method as "GET",
    url,
    headers: { ...bearer(key), ...headers },
    remoteAddress: freshIp(),
    ...(payload !== undefined ? { payload } : {}),
  });
}

describe("#13 route misses are 404/405 before any body check (API.md §2 order)", () => {
  it("every documented path, with every method it does not declare and every bad body → 405 naming Allow", async () => {
    const paths = [...new Set(ops.map((op) => op.path))];
    let checked = 0;
    for (const path of paths) {
      const declared = new Set(ops.filter((op) => op.path === path).map((op) => op.method));
      for (const method of METHODS.filter((m) => !declared.has(m))) {
        for (const id of ["x_1", "x".repeat(255)]) {
          const url = urlOf({ path, requiredQuery: [] } as unknown as Operation, id);
          if (routed(method, url)) continue; // another route takes it (GET /commissions/adjustments is GET /commissions/{id})
          for (const [label, headers, body] of BAD_BODIES) {
            const res = await send(method, url, headers, method === "GET" ? undefined : body);
            const error = expectContractError(res, 405, "method_not_allowed");
            expect(error.message, `${method} ${path} (${label})`).toContain(`${method} is not allowed`);
            expect(String(res.headers.allow).split(", ").sort()).toEqual(METHODS.filter((m) => routed(m, url)).sort());
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it.each(BAD_BODIES)("an unknown path with %s → 404 not_found", async (_label, headers, body) => {
    for (const method of ["POST", "PUT", "PATCH"]) {
      const res = await send(method, "/api/v1/no-such-thing", headers, body);
      expectContractError(res, 404, "not_found");
    }
  });

  it("an Idempotency-Key sent to an unknown route stores nothing (the same key then works on a real route)", async () => {
    const idem = { "content-type": "application/json", "idempotency-key": "route-miss-1" };
    const miss = await send("POST", "/api/v1/no-such-thing", idem, "{}");
    expectContractError(miss, 404, "not_found");
    const body = JSON.stringify({ name: "Route Miss", email: "route-miss@example.com", role: "rep" });
    const created = await send("POST", "/api/v1/users", idem, body);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers["idempotent-replayed"]).toBeUndefined();
  });
});
