import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Scope } from "../../src/context.js";
import { createApiKey, errorOf, freshIp, unknownId } from "../factories.js";
import { bearer, createTestApp, type TestApp } from "../harness.js";
import { COMMISSION_ROUTES, type CommissionRouteCase, prepareRouteCases } from "./route-cases.js";

/** The security table for this feature's routes: 401, 403, 404, 422 and success, per route. */

let t: TestApp;
const keys = {} as Record<Scope, string>;
const BELOW: Record<Scope, Scope | undefined> = { read: undefined, write: "read", admin: "write" };

beforeAll(async () => {
  t = await createTestApp();
  await prepareRouteCases(t);
});
afterAll(() => t.close());

async function key(scope: Scope): Promise<string> {
  keys[scope] = (await createApiKey(t, scope)).key;
  return keys[scope];
}

async function call(
  route: CommissionRouteCase,
  options: { id?: string; auth?: string; body?: unknown; query?: string },
) {
  const id = options.id ?? (route.record ? await route.record(t) : route.param?.());
  const path = route.path.replace(/\{\w+\}/, id ?? "");
  const body = "body" in options ? options.body : route.body?.();
  const query = options.query ?? route.query;
  return t.app.inject({
    method: route.method,
    url: query ? `${path}?${query}` : path,
    headers: options.auth ? bearer(options.auth) : {},
    remoteAddress: freshIp(),
    ...(body !== undefined ? { payload: body as object } : {}),
  });
}

describe("every route of this feature is in the table", () => {
  it("matches the OpenAPI document", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json();
    const mine = /^\/api\/v1\/(comp-plans|plan-assignments|spiffs|deals|commissions|users\/\{id\}\/statement)/;
    const documented = Object.entries(doc.paths as Record<string, object>)
      .filter(([path]) => mine.test(path))
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(COMMISSION_ROUTES.map((r) => `${r.method} ${r.path}`).sort()).toEqual(documented);
  });
});

describe.each(COMMISSION_ROUTES)("$method $path", (route) => {
  it(`succeeds with a ${route.scope} key (${route.ok})`, async () => {
    const res = await call(route, { auth: await key(route.scope) });
    expect(res.statusCode, res.body).toBe(route.ok);
  });

  it("no key → 401", async () => {
    const res = await call(route, { id: "x" });
    expect([res.statusCode, errorOf(res).code]).toEqual([401, "unauthorized"]);
  });

  const below = BELOW[route.scope];
  it.runIf(below)(`a ${below} key → 403 naming the ${route.scope} scope`, async () => {
    const res = await call(route, { id: "x", auth: await key(below!), body: { nonsense: true } });
    expect([res.statusCode, errorOf(res).code]).toEqual([403, "forbidden"]);
    expect(errorOf(res).message).toContain(`needs the ${route.scope} scope`);
  });

  it.runIf(route.idPrefix)("an unknown id → 404", async () => {
    const id = unknownId(route.idPrefix!);
    const res = await call(route, { id, auth: await key(route.scope) });
    expect([res.statusCode, errorOf(res).code], res.body).toEqual([404, "not_found"]);
    expect(errorOf(res).message).toContain(id);
  });

  it(`invalid input → 422 naming ${route.invalid.param}`, async () => {
    const { invalid } = route;
    const res = await call(route, {
      auth: await key(route.scope),
      ...(invalid.id ? { id: invalid.id } : {}),
      ...(invalid.query ? { query: invalid.query } : {}),
      ...("body" in invalid ? { body: invalid.body } : {}),
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(errorOf(res).code).toBe("validation_error");
    expect(errorOf(res).details?.map((d) => d.param)).toContain(invalid.param);
  });
});
