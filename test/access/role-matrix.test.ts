import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role, Scope } from "../../src/context.js";
import { createApiKey, createUser, errorOf, freshIp, unknownId } from "../factories.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";
import { type Operation, operations } from "../route-case.js";
import { sessionOf } from "./sessions.js";

/**
 * API.md §11's role table as a matrix over every documented route × role, generated from the route
 * table (the served OpenAPI document) like the key security table. What each cell expects comes from
 * the rules below, never from a list per route: a new route is covered, and checked, by itself.
 */

const ROLES: readonly Role[] = ["rep", "manager", "finance", "admin"];

/** Admin-only whatever their scope: keys, webhooks, audit, request logs, jobs. */
const ADMIN_ONLY =
  /^\/api\/v1\/(api-keys|webhook-subscriptions|webhook-deliveries|audit-events|request-logs|jobs)(\/|$)/;

/** The "may do" column beyond the scopes' defaults (read → everyone, write and admin → admins). */
const MAY_DO: Record<string, readonly Role[]> = {
  "POST /api/v1/deals/{id}/mark-paid": ["admin", "finance"],
  "POST /api/v1/commissions/adjustments": ["admin", "finance"],
  "POST /api/v1/commissions/preview": ROLES,
  "POST /api/v1/deals/{id}/disputes": ["admin", "rep", "manager"],
};

function mayCall(route: Operation, scope: Scope, role: Role): boolean {
  const rule = MAY_DO[`${route.method} ${route.path}`];
  if (rule) return rule.includes(role);
  if (ADMIN_ONLY.test(route.path)) return role === "admin";
  return scope === "read" || role === "admin";
}

/** `/api/v1/deals/{id}/approve` → `/api/v1/deals/{id}`: the record a route acts on, if any. */
const recordOf = (path: string) => /^\/api\/v1\/[^/{]+\/\{id\}/.exec(path)?.[0];

const t: TestApp = await createTestApp({ clock: new TestClock() });
/** The signed-in routes of the API (the /auth routes are the session's own, tested with it). */
const ROUTES = (await operations(t)).filter((r) => !r.path.startsWith("/api/v1/auth/"));
const scopes = new Map<string, Scope>();
const sessions = {} as Record<Role, Record<string, string>>;
const named = (r: Pick<Operation, "method" | "path">) => `${r.method} ${r.path}`;

function send(route: Operation, headers: Record<string, string>, id = "x") {
  return t.app.inject({
    method: route.method,
    url: route.path.replace(/\{\w+\}/g, id),
    headers,
    remoteAddress: freshIp(),
    ...(route.method === "GET" || route.method === "DELETE" ? {} : { payload: { nonsense: true } }),
  });
}

/** The scope a route needs, as a key finds it: the smallest whose request is not refused with 403. */
async function scopeOf(route: Operation, keys: Record<Scope, string>): Promise<Scope> {
  for (const scope of ["read", "write"] as const) {
    if ((await send(route, bearer(keys[scope]))).statusCode !== 403) return scope;
  }
  return "admin";
}

beforeAll(async () => {
  const keys = {} as Record<Scope, string>;
  for (const scope of ["read", "write", "admin"] as const) keys[scope] = (await createApiKey(t, scope)).key;
  for (const route of ROUTES) scopes.set(named(route), await scopeOf(route, keys));
  for (const role of ROLES) sessions[role] = await sessionOf(t, await createUser(t, { role }));
});

afterAll(async () => {
  await t.close();
});

describe.each(ROLES)("a signed-in %s", (role) => {
  it.each(ROUTES)("$method $path: passes the role gate only where §11 allows", async (route) => {
    const scope = scopes.get(named(route))!;
    const record = recordOf(route.path);
    const res = await send(route, sessions[role], record ? unknownId("x") : "x");
    if (mayCall(route, scope, role)) {
      expect([401, 403], `${role} may call ${named(route)}: ${res.body}`).not.toContain(res.statusCode);
      return;
    }
    // A refusal first reads the record as the person: one they do not see (here: unknown) is 404 in the
    // collections §11 lets them see, 403 in the admin-only ones.
    if (record && (role === "admin" || !ADMIN_ONLY.test(record))) {
      expect([res.statusCode, errorOf(res).code], res.body).toEqual([404, "not_found"]);
      return;
    }
    expect([res.statusCode, errorOf(res).code], res.body).toEqual([403, "forbidden"]);
    expect(errorOf(res).message).toMatch(
      new RegExp(`needs the (\\w+, )*(\\w+ or )?admin( or \\w+)? role; you are ${role}$`),
    );
  });
});
