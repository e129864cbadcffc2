import type { HTTPMethods } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNTING_ROUTES } from "../accounting/route-cases.js";
import { CLAWBACK_ROUTES } from "../clawbacks/route-cases.js";
import { COMMISSION_ROUTES, DISPUTE_ROUTES, prepareRouteCases } from "../commissions/route-cases.js";
import { DRAW_ROUTES, prepareDrawRouteCases } from "../draws/route-cases.js";
import { EXCHANGE_RATE_ROUTES } from "../exchange-rates/route-cases.js";
import { createApiKey, createUser, unique, uniqueEmail } from "../factories.js";
import { bearer, createTestApp, type TestApp } from "../harness.js";
import { IMPORT_ROUTES } from "../imports/route-cases.js";
import { PAYOUT_RUN_ROUTES } from "../payout-runs/route-cases.js";
import type { RouteCase } from "../route-case.js";
import { createWebhookDelivery, createWebhookSubscription } from "../webhooks/support.js";

/**
 * #13.22, for every write route: the stored reply of a request sent with an Idempotency-Key is
 * written by the very transaction that did the request's work (same xmin as its audit rows), so no
 * crash can leave the work committed without its reply, or the reply without its work.
 */
const OTHER_WRITE_ROUTES: RouteCase[] = [
  {
    method: "POST",
    path: "/api/v1/api-keys",
    scope: "admin",
    ok: 201,
    body: () => ({ name: unique("key"), scope: "read" }),
    invalid: { param: "" },
  },
  {
    method: "POST",
    path: "/api/v1/api-keys/{id}/revoke",
    scope: "admin",
    ok: 200,
    record: async (t) => (await createApiKey(t, "read")).id,
    invalid: { param: "" },
  },
  {
    method: "POST",
    path: "/api/v1/api-keys/{id}/rotate",
    scope: "admin",
    ok: 200,
    record: async (t) => (await createApiKey(t, "read")).id,
    body: () => ({ grace_period_seconds: 60 }),
    invalid: { param: "" },
  },
  {
    method: "POST",
    path: "/api/v1/users",
    scope: "write",
    ok: 201,
    body: () => ({ name: "Ada Lovelace", email: uniqueEmail("ada") }),
    invalid: { param: "" },
  },
  {
    method: "PATCH",
    path: "/api/v1/users/{id}",
    scope: "write",
    ok: 200,
    record: async (t) => (await createUser(t)).id,
    body: () => ({ name: unique("Renamed") }),
    invalid: { param: "" },
  },
  {
    method: "PUT",
    path: "/api/v1/users/{id}/reporting-lines",
    scope: "admin",
    ok: 200,
    record: async (t) => (await createUser(t)).id,
    body: () => ({ lines: [{ manager_id: null, effective_from: "2026-01-01" }] }),
    invalid: { param: "" },
  },
  {
    method: "POST",
    path: "/api/v1/users/{id}/reporting-lines/impact",
    scope: "admin",
    ok: 200,
    record: async (t) => (await createUser(t)).id,
    body: () => ({ manager_id: null }),
    invalid: { param: "" },
  },
  {
    method: "POST",
    path: "/api/v1/users/{id}/sessions/revoke",
    scope: "admin",
    ok: 200,
    record: async (t) => (await createUser(t)).id,
    invalid: { param: "" },
  },
  {
    method: "POST",
    path: "/api/v1/users/{id}/invitations",
    scope: "admin",
    ok: 201,
    record: async (t) => (await createUser(t)).id,
    invalid: { param: "" },
  },
  {
    method: "POST",
    path: "/api/v1/webhook-subscriptions",
    scope: "admin",
    ok: 201,
    body: () => ({ url: "https://93.184.215.14/hooks", events: ["*"] }),
    invalid: { param: "" },
  },
  {
    method: "PATCH",
    path: "/api/v1/webhook-subscriptions/{id}",
    scope: "admin",
    ok: 200,
    record: async (t) => (await createWebhookSubscription(t)).id,
    body: () => ({ description: unique("hooks") }),
    invalid: { param: "" },
  },
  {
    method: "POST",
    path: "/api/v1/webhook-subscriptions/{id}/rotate-secret",
    scope: "admin",
    ok: 200,
    record: async (t) => (await createWebhookSubscription(t)).id,
    invalid: { param: "" },
  },
  {
    method: "POST",
    path: "/api/v1/webhook-subscriptions/{id}/test",
    scope: "admin",
    ok: 202,
    record: async (t) => (await createWebhookSubscription(t)).id,
    invalid: { param: "" },
  },
  {
    method: "POST",
    path: "/api/v1/webhook-deliveries/{id}/retry",
    scope: "admin",
    ok: 200,
    record: createWebhookDelivery,
    invalid: { param: "" },
  },
];

const WRITES = new Set<HTTPMethods>(["POST", "PUT", "PATCH"]);
const ROUTES = [
  ...OTHER_WRITE_ROUTES,
  ...COMMISSION_ROUTES,
  ...DISPUTE_ROUTES,
  ...CLAWBACK_ROUTES,
  ...PAYOUT_RUN_ROUTES,
  ...DRAW_ROUTES,
  ...IMPORT_ROUTES,
  ...EXCHANGE_RATE_ROUTES,
  ...ACCOUNTING_ROUTES,
].filter((r) => WRITES.has(r.method));
/** Writes nothing, so has no work to share a transaction with. */
const READ_ONLY = new Set([
  "POST /api/v1/commissions/preview",
  "POST /api/v1/comp-plans/{id}/impact",
  "POST /api/v1/users/{id}/reporting-lines/impact",
  "POST /api/v1/deals/{id}/clawback-preview",
  // Its row is a dry run (test/imports/idempotency.test.ts replays a real import).
  "POST /api/v1/imports/deals",
]);

const t: TestApp = await createTestApp();
let admin = "";
let adminId = "";
beforeAll(async () => {
  await prepareRouteCases(t);
  await prepareDrawRouteCases(t);
  ({ key: admin, id: adminId } = await createApiKey(t, "admin"));
});
afterAll(async () => t.close());

describe("#13.22 the table covers every write route", () => {
  it("has one row per POST, PUT and PATCH operation in the OpenAPI document", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json() as {
      paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
    };
    // Idempotency-Key replays are kept per API key: sign-in and session-only routes take none.
    const byKey = (op: { security?: Record<string, unknown>[] }) =>
      op.security === undefined || op.security.some((s) => "bearerAuth" in s);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => byKey(op))
        .map(([m]) => `${m.toUpperCase()} ${path}`)
        .filter((op) => WRITES.has(op.split(" ")[0] as HTTPMethods) && path.startsWith("/api/v1/")),
    );
    const rows = ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(documented.filter((op) => !rows.includes(op))).toEqual([]);
  });
});

describe.each(ROUTES)("#13.22 $method $path with an Idempotency-Key", (route) => {
  it("stores its reply in the transaction of its work, and replays it", async () => {
    const id = route.record ? await route.record(t) : undefined;
    const url = route.path.replace(/\{\w+\}/, id ?? route.param?.() ?? "");
    const body = route.body?.();
    const idem = unique("idem");
    const send = () =>
      t.app.inject({
        method: route.method,
        url: route.query ? `${url}?${route.query}` : url,
        headers: { ...route.headers, ...bearer(admin), "idempotency-key": idem },
        ...(body !== undefined ? { payload: body as object } : {}),
      });
    const first = await send();
    expect(first.statusCode, first.body).toBe(route.ok);

    const record = await sql<{ xmin: string; state: string }>`
      SELECT xmin::text AS xmin, state FROM idempotency_keys WHERE key_id = ${adminId} AND idem_key = ${idem}`.execute(
      t.db.db,
    );
    const audits = await sql<{ xmin: string }>`
      SELECT DISTINCT xmin::text AS xmin FROM audit_events WHERE request_id = ${first.headers["request-id"]}`.execute(
      t.db.db,
    );
    const name = `${route.method} ${route.path}`;
    expect(record.rows).toHaveLength(1);
    expect(audits.rows.map((r) => r.xmin)).toEqual(READ_ONLY.has(name) ? [] : [record.rows[0]!.xmin]);

    const again = await send();
    if (record.rows[0]!.state === "secret") {
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe("conflict");
      return;
    }
    expect(again.statusCode).toBe(route.ok);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toBe(first.body);
  });
});
