import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Commission } from "../../src/commissions/index.js";
import type { Role, Scope } from "../../src/context.js";
import type { Dispute } from "../../src/disputes/index.js";
import { createDraw } from "../../src/draws/index.js";
import type { Page } from "../../src/http/pagination.js";
import type { SpiffWritten } from "../../src/spiffs/testing.js";
import { createApiKey, createJob, createUser, errorOf, freshIp, unknownId } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";
import { draftRun } from "../payout-runs/route-cases.js";
import { type Operation, operations } from "../route-case.js";
import { type SignedInSession, signedInAs } from "../sessions.js";
import { createWebhookDelivery, createWebhookSubscription } from "../webhooks/support.js";

/**
 * API.md §11's role table as a matrix over every documented route × role, generated from the route
 * table (the served OpenAPI document) like the key security table. What each cell expects comes from
 * the rules below, never from a list per route: a new route is covered, and checked, by itself.
 */

const ROLES: readonly Role[] = ["rep", "manager", "finance", "admin"];

/** Admin-only whatever their scope: keys, webhooks, audit, request logs, jobs. */
const ADMIN_ONLY =
  /^\/api\/v1\/(api-keys|webhook-subscriptions|webhook-deliveries|audit-events|request-logs|jobs)(\/|$)/;

/** Finance's and admins' whatever their scope (API.md §13): a record there is refused before it is read. */
const FINANCE_ONLY = /^\/api\/v1\/(payout-runs|accounting)(\/|$)/;
const PAYOUT_RUNS = ["admin", "finance"] as const;

/** The "may do" column beyond the scopes' defaults (read → everyone, write and admin → admins). */
const MAY_DO: Record<string, readonly Role[]> = {
  "POST /api/v1/deals/{id}/mark-paid": ["admin", "finance"],
  "POST /api/v1/commissions/adjustments": ["admin", "finance"],
  "GET /api/v1/payouts": ["admin", "finance"],
  "POST /api/v1/commissions/preview": ROLES,
  "POST /api/v1/comp-plans/{id}/impact": ["admin", "finance"],
  "POST /api/v1/users/{id}/reporting-lines/impact": ["admin", "finance"],
  "POST /api/v1/deals/{id}/disputes": ["admin", "rep", "manager"],
  "PATCH /api/v1/users/{id}": ["admin", "finance"],
  "POST /api/v1/deals/{id}/clawback-preview": ["admin", "finance"],
  "POST /api/v1/draws": ["admin", "finance"],
  "POST /api/v1/draws/{id}/end": ["admin", "finance"],
  "POST /api/v1/draws/{id}/forgive": ["admin", "finance"],
  "GET /api/v1/settings/accounting": ["admin", "finance"],
  // Who has not acknowledged their plan (issue #34): admins and finance; each person reads their own requests.
  "GET /api/v1/plan-acknowledgements": ["admin", "finance"],
};

function mayCall(route: Operation, scope: Scope, role: Role): boolean {
  const rule = MAY_DO[`${route.method} ${route.path}`];
  if (rule) return rule.includes(role);
  if (FINANCE_ONLY.test(route.path)) return (PAYOUT_RUNS as readonly Role[]).includes(role);
  if (ADMIN_ONLY.test(route.path)) return role === "admin";
  return scope === "read" || role === "admin";
}

/** `/api/v1/deals/{id}/approve` → `/api/v1/deals/{id}`: the record a route acts on, if any. */
const recordOf = (path: string) => /^\/api\/v1\/[^/{]+\/\{id\}/.exec(path)?.[0];

const t: TestApp = await createTestApp({ clock: new TestClock() });
/** The routes a key or a person may call (sign-in and the session's own routes are tested with the sessions). */
// DELETEs last, so an allowed one (an admin's) removes its record after every other cell used it.
const ROUTES = (await operations(t))
  .filter((r) => r.access === "key")
  .sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));
const scopes = new Map<string, Scope>();
const sessions = {} as Record<Role, SignedInSession>;
/** Per role, per collection (`/api/v1/deals/{id}`): the id of a record that person sees. */
const seen = {} as Record<Role, Record<string, string>>;
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

/** A deal, plan, assignment, line and dispute of the person's own, and records only admins see. */
async function recordsOf(session: SignedInSession): Promise<Record<string, string>> {
  const api = new Api(t);
  const user = session.user;
  const plan = await createPlan(api);
  const assignment = await assign(api, plan.id, user.id);
  const deal = await createDeal(api, user.id);
  await approveAsOwner(t, deal.id, "disputed");
  const [line] = ok<Page<Commission>>(await api.get(`/commissions?deal_id=${deal.id}`)).data;
  const [dispute] = ok<Page<Dispute>>(await api.get(`/disputes?deal_id=${deal.id}`)).data;
  const refunded = await createDeal(api, user.id);
  await approveAsOwner(t, refunded.id);
  const refund = ok<{ id: string }>(
    await api.post(`/deals/${refunded.id}/refunds`, { amount: 1, effective_date: refunded.close_date }),
    201,
  );
  const spiff = ok<SpiffWritten>(
    await api.post("/spiffs", {
      name: "S",
      starts_on: "2020-01-01",
      ends_on: "2020-01-31",
      payout: { type: "flat", amount: 1 },
    }),
    201,
  );
  return {
    "/api/v1/deals/{id}": deal.id,
    "/api/v1/commissions/{id}": line!.id,
    "/api/v1/comp-plans/{id}": plan.id,
    "/api/v1/plan-assignments/{id}": assignment.id,
    "/api/v1/disputes/{id}": dispute!.id,
    "/api/v1/refunds/{id}": refund.id,
    "/api/v1/spiffs/{id}": spiff.id,
    // Reps and managers see themselves; others get someone else (an admin revoking their own sessions would sign out).
    "/api/v1/users/{id}": ["rep", "manager"].includes(user.role) ? user.id : (await createUser(t)).id,
    "/api/v1/api-keys/{id}": (await createApiKey(t, "read")).id,
    "/api/v1/webhook-subscriptions/{id}": (await createWebhookSubscription(t)).id,
    "/api/v1/webhook-deliveries/{id}": await createWebhookDelivery(t),
    "/api/v1/jobs/{id}": (await createJob(t)).id,
    "/api/v1/payout-runs/{id}": await draftRun(t),
    // The request to acknowledge the plan just assigned to the person (written by the assignment).
    "/api/v1/plan-acknowledgements/{id}": (
      await sql<{ id: string }>`SELECT id FROM plan_acknowledgements WHERE user_id = ${user.id} LIMIT 1`.execute(
        t.db.db,
      )
    ).rows[0]!.id,
    "/api/v1/draws/{id}": (
      await createDraw(t.ownerCtx(), {
        user_id: user.id,
        kind: "recoverable",
        amount: "1000",
        currency: "USD",
        period: "month",
        starts_on: "2026-01-01",
        ends_on: "2026-12-31",
      })
    ).id,
  };
}

beforeAll(async () => {
  const keys = {} as Record<Scope, string>;
  for (const scope of ["read", "write", "admin"] as const) keys[scope] = (await createApiKey(t, scope)).key;
  for (const route of ROUTES) scopes.set(named(route), await scopeOf(route, keys));
  for (const role of ROLES) {
    sessions[role] = await signedInAs(t, { role });
    seen[role] = await recordsOf(sessions[role]);
  }
});

afterAll(async () => {
  await t.close();
});

describe.each(ROLES)("a signed-in %s", (role) => {
  const call = (route: Operation, id?: string) => send(route, sessions[role].headers(route.method), id);

  it.each(ROUTES)("$method $path: allowed or refused as §11 says", async (route) => {
    const allowed = mayCall(route, scopes.get(named(route))!, role);
    const record = recordOf(route.path);
    const own = record && seen[role][record];
    if (record) expect(own, `a record of ${record} for the matrix`).toBeDefined();
    const res = await call(route, own || "x");
    if (allowed) {
      // Past the gate: validation (422), the record, or success — never a refusal, never "not found".
      expect([401, 403, 404], `${role} may call ${named(route)}: ${res.body}`).not.toContain(res.statusCode);
      return;
    }
    expect([res.statusCode, errorOf(res).code], res.body).toEqual([403, "forbidden"]);
    // "This action needs the admin role; you are rep", "… the admin, rep or manager role; you are finance"
    const needed = `(admin|admin(, \\w+)* or \\w+)`;
    expect(errorOf(res).message).toMatch(new RegExp(`^This action needs the ${needed} role; you are ${role}$`));
    if (!record) return;
    // A record the person does not see (here: unknown) is 404 in the collections §11 shows them, 403 in the admin-only ones.
    const unknown = await call(route, unknownId("x"));
    const refusedFirst = ADMIN_ONLY.test(record) || FINANCE_ONLY.test(record);
    const expected = refusedFirst ? [403, "forbidden"] : [404, "not_found"];
    expect([unknown.statusCode, errorOf(unknown).code], unknown.body).toEqual(expected);
  });
});
