import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, createUser } from "../factories.js";
import { Api, assign, createDeal, createPlan } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { operations } from "../route-case.js";
import { createWebhookSubscription } from "../webhooks/support.js";
import { send, WRITE_METHODS } from "./operations.js";

/**
 * #13 "Done when": random JSON, strings (lone surrogates, NUL, RTL, 10k characters), dates and numbers
 * posted to every write route of the route table. Never a 5xx; a 4xx has the contract's body and
 * writes nothing (each table's rows, hashed, are the same before and after).
 */

const t: TestApp = await createTestApp({ clock: new TestClock() });
// Routes only a session may call answer a key 403 before reading input (test/auth covers them).
const WRITES = (await operations(t)).filter((op) => WRITE_METHODS.has(op.method) && op.access !== "session");
let admin = "";
/** Real records for `{id}`, by the path's first segment, so bodies reach the services too. */
const ids: Record<string, string> = {};

// Tables a request may change (request logs, rate-limit and idempotency records are bookkeeping).
const TABLES = [
  "users",
  "comp_plans",
  "comp_plan_versions",
  "plan_assignments",
  "spiffs",
  "deals",
  "deal_splits",
  "commission_lines",
  "disputes",
  "webhook_subscriptions",
  "webhook_deliveries",
  "audit_events",
  "events",
  "jobs",
] as const;

async function snapshot(): Promise<string[]> {
  const rows = await Promise.all(
    TABLES.map(async (table) => {
      const { rows } = await sql<{ n: string; h: string }>`
        SELECT count(*)::text AS n, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h
        FROM ${sql.table(table)} x`.execute(t.db.db);
      return `${table}:${rows[0]!.n}:${rows[0]!.h}`;
    }),
  );
  const keys = await sql<{ n: string }>`SELECT count(*)::text AS n FROM api_keys`.execute(t.db.db);
  return [...rows, `api_keys:${keys.rows[0]!.n}`];
}

beforeAll(async () => {
  admin = (await createApiKey(t, "admin")).key;
  const api = new Api(t);
  const user = await createUser(t);
  const plan = await createPlan(api);
  ids.users = user.id;
  ids["comp-plans"] = plan.id;
  ids["plan-assignments"] = (await assign(api, plan.id, user.id)).id;
  ids.deals = (await createDeal(api, user.id)).id;
  ids["webhook-subscriptions"] = (await createWebhookSubscription(t)).id;
  ids["api-keys"] = (await createApiKey(t, "read")).id;
});
afterAll(async () => {
  await t.close();
});

const nastyString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("\ud800", "a\udfffb", "x\u0000y", "\u202eevil\u202c", "مرحبا بالعالم", "😀", " ", ""),
  fc.constantFrom("x".repeat(10_000), "\u05d0".repeat(10_000)),
);
const dateString = fc.oneof(
  fc.constantFrom("0000-01-01", "0001-01-01", "9999-12-31", "10000-01-01", "2026-02-30", "2026-13-01", "-0001-01-01"),
  fc
    .date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true })
    .chain((d) => fc.constantFrom(d.toISOString(), d.toISOString().slice(0, 10))),
);
const number = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom(0, -0, 1e308, -1e308, 5e-324, 0.1 + 0.2, 2 ** 53 + 1, 999_999_999_999.99, 1e21),
);
const leaf = fc.oneof(nastyString, dateString, number, fc.boolean(), fc.constant(null));
const anyValue = fc.oneof(
  leaf,
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(leaf, { maxLength: 3 }),
  fc.dictionary(nastyString, leaf, { maxKeys: 3 }),
);

/** A body shaped like the route's own (its documented fields), or any JSON at all. */
function bodyFor(fields: string[]) {
  const shaped =
    fields.length > 0
      ? fc.record(Object.fromEntries(fields.map((f) => [f, anyValue])), { requiredKeys: [] })
      : fc.dictionary(nastyString, leaf, { maxKeys: 2 });
  return fc.oneof({ weight: 3, arbitrary: shaped }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) });
}

describe("#13 fuzz: random input to every write route → no 5xx, contract errors, nothing written on 4xx", () => {
  it("covers the write routes", () => {
    expect(WRITES.length).toBeGreaterThanOrEqual(25);
  });

  it.each(WRITES.map((op) => [`${op.method} ${op.path}`, op] as const))("%s", async (_name, op) => {
    const url = op.path.replace(/\{\w+\}/g, () => ids[op.path.split("/")[3]!] ?? "x_00000000000000000000000000");
    await fc.assert(
      fc.asyncProperty(bodyFor(Object.keys(op.body ?? {})), async (body) => {
        const before = await snapshot();
        const res = await send(t, admin, op, url, JSON.stringify(body));
        expect(res.statusCode, res.body).toBeLessThan(500);
        if (res.statusCode >= 400) {
          const error = res.json().error;
          expect(
            Object.keys(error)
              .filter((k) => k !== "details")
              .sort(),
          ).toEqual(["code", "message", "request_id"]);
          expect(error.request_id).toBe(res.headers["request-id"]);
          expect(JSON.stringify(error)).not.toMatch(/Invalid (input|option)|expected \w+, received/);
          expect(await snapshot()).toEqual(before);
        }
      }),
      { numRuns: 25, seed: 13 },
    );
  });
});
