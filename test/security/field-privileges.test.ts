import type { HTTPMethods } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FieldRequirement } from "../../src/access/index.js";
import type { Role, Scope } from "../../src/context.js";
import type { User } from "../../src/users/index.js";
import { createUser, errorOf, freshIp, uniqueEmail } from "../factories.js";
import { bearer, createTestApp, type TestApp } from "../harness.js";
import { call, connect, errorIn, listen, mcpKey } from "../mcp/client.js";
import { ROUTES } from "../route-rows.js";
import { signedInAs } from "../sessions.js";

/**
 * API.md §20 (a), as a class: every body field of every operation that needs more than its route's scope
 * says so in the served document (`x-requires`, stated once on the field's schema), and each such field is
 * refused below it and accepted at it — walked from the document, so a new privileged field is covered by
 * itself. How to write to an operation (its scope, a valid body, a record) comes from the security table's rows.
 */

interface DocSchema {
  type?: string;
  format?: string;
  enum?: unknown[];
  properties?: Record<string, DocSchema & { "x-requires"?: FieldRequirement }>;
  $ref?: string;
}

interface PrivilegedField {
  operation: string;
  method: HTTPMethods;
  path: string;
  field: string;
  schema: DocSchema;
  rule: FieldRequirement;
  /** The scope the route itself needs (its other fields). */
  routeScope: Scope;
}

let t: TestApp;
let keys: Record<Scope, string>;
let fields: PrivilegedField[];
let mcpOrigin: string;

beforeAll(async () => {
  t = await createTestApp();
  keys = {
    read: (await t.key("read")).key,
    write: (await t.key("write")).key,
    admin: (await t.key("admin")).key,
  };
  const doc = (await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json() as {
    paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: DocSchema }> } }>>;
    components: { schemas: Record<string, DocSchema> };
  };
  const resolve = (s: DocSchema) => (s.$ref ? doc.components.schemas[s.$ref.split("/").pop()!]! : s);
  const found = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).flatMap(([method, op]) => {
      const body = op.requestBody?.content["application/json"]?.schema;
      const operation = `${method.toUpperCase()} ${path}`;
      return Object.entries(body ? (resolve(body).properties ?? {}) : {}).flatMap(([field, schema]) => {
        const rule = schema["x-requires"];
        return rule ? [{ operation, method: method.toUpperCase() as HTTPMethods, path, field, schema, rule }] : [];
      });
    }),
  );
  fields = found.map((f) => ({ ...f, routeScope: rowOf(f)?.scope ?? "read" }));
  mcpOrigin = await listen(t);
});

afterAll(() => t?.close());

function send(f: PrivilegedField, key: string, body: Record<string, unknown>, id?: string) {
  return t.app.inject({
    method: f.method,
    url: f.path.replace("{id}", id ?? ""),
    headers: bearer(key),
    remoteAddress: freshIp(),
    payload: body,
  });
}

const rowOf = (f: Pick<PrivilegedField, "method" | "path">) =>
  ROUTES.find((r) => r.method === f.method && r.path === f.path);

/** A valid body for the operation (its security-table row's), as an object fields can be added to. */
const bodyOf = (f: PrivilegedField) => ({ ...(rowOf(f)!.body?.() as Record<string, unknown> | undefined) });

const asAdmin = (id: string) =>
  t.app.inject({ method: "GET", url: `/api/v1/users/${id}`, headers: bearer(keys.admin) }).then((r) => r.json());

/** A value of the field other than `current` that the rule covers (a change, or one of its `values`). */
function privilegedValue(f: PrivilegedField, current: unknown): unknown {
  const candidates =
    f.rule.values ?? f.schema.enum ?? (f.schema.type === "boolean" ? [true, false] : [uniqueEmail("changed")]);
  const value = candidates.find((v) => v !== current);
  if (value === undefined) throw new Error(`no value to try for ${f.operation} ${f.field}`);
  return value;
}

/** A record for an update: a fresh one, brought (by an admin) to what the rule's `record` condition names. */
async function recordFor(f: PrivilegedField, matching: boolean): Promise<User> {
  const user = (await asAdmin(await rowOf(f)!.record!(t))) as User;
  const wanted = Object.entries(f.rule.record ?? {}).map(([field, values]) => [field, values[0]]);
  if (!matching || wanted.length === 0) return user;
  const res = await send(f, keys.admin, Object.fromEntries(wanted), user.id);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as User;
}

describe("privileged fields (API.md §20 (a)), from the route table", () => {
  it("the document marks exactly the fields the contract names", () => {
    const marked = fields.map((f) => `${f.operation} ${f.field} → ${f.rule.scope}`).sort();
    expect(marked).toEqual([
      "PATCH /api/v1/users/{id} active → admin",
      "PATCH /api/v1/users/{id} email → admin",
      "PATCH /api/v1/users/{id} role → admin",
      "POST /api/v1/users active → admin",
      "POST /api/v1/users role → admin",
    ]);
    const roles = new Set(fields.map((f) => f.rule.roles.join()));
    expect([...roles]).toEqual(["admin"]);
  });

  it("every operation with a privileged field has a security-table row telling how to write to it", () => {
    const missing = [...new Set(fields.filter((f) => !rowOf(f)).map((f) => f.operation))];
    expect(missing, "add a row to test/route-rows.ts for each of these").toEqual([]);
  });

  it("below its scope: 403 naming the scope, and nothing changes; at its scope: the write succeeds", async () => {
    for (const f of fields) {
      const below = f.routeScope;
      const record = rowOf(f)!.record ? await recordFor(f, true) : undefined;
      const value = privilegedValue(f, record?.[f.field as keyof User]);
      const body = { ...bodyOf(f), [f.field]: value };
      if (below !== f.rule.scope) {
        const refused = await send(f, keys[below], body, record?.id);
        expect([refused.statusCode, errorOf(refused).code], `${f.operation} ${f.field}=${value}`).toEqual([
          403,
          "forbidden",
        ]);
        expect(errorOf(refused).message).toContain(`needs the ${f.rule.scope} scope; this key has ${below}`);
        if (record) expect(await asAdmin(record.id)).toEqual(record);
        else expect(await listByEmail(body.email as string)).toBe(0);
      }
      const allowed = await send(f, keys[f.rule.scope], body, record?.id);
      expect(allowed.statusCode, `${f.operation} ${f.field}=${value}: ${allowed.body}`).toBe(record ? 200 : 201);
      expect((allowed.json() as Record<string, unknown>)[f.field]).toBe(value);
    }
  });

  it("outside the rule a caller of the route's own scope may still write the field", async () => {
    for (const f of fields) {
      // Unchanged on an update; a value the rule does not list on a create; a record it does not cover.
      const cases: { record?: User; value: unknown }[] = [];
      if (rowOf(f)!.record) {
        const record = await recordFor(f, true);
        cases.push({ record, value: record[f.field as keyof User] });
        if (f.rule.record) cases.push({ record: await recordFor(f, false), value: uniqueEmail("free") });
      } else {
        const others = (f.schema.enum ?? [true, false]).filter((v) => !f.rule.values?.includes(v as never));
        cases.push(...others.map((value) => ({ value })));
      }
      for (const c of cases) {
        const res = await send(f, keys[f.routeScope], { ...bodyOf(f), [f.field]: c.value }, c.record?.id);
        expect(res.statusCode, `${f.operation} ${f.field}=${c.value}: ${res.body}`).toBe(c.record ? 200 : 201);
      }
    }
  });

  it("people: only the admin role writes them (a session below gets 403 naming admin)", async () => {
    const admin = await signedInAs(t, { role: "admin" });
    const finance = await signedInAs(t, { role: "finance" });
    const target = await createUser(t);
    const refused = await t.app.inject({
      method: "PATCH",
      url: `/api/v1/users/${target.id}`,
      headers: finance.headers("PATCH"),
      payload: { role: "finance" },
    });
    expect([refused.statusCode, errorOf(refused).message]).toEqual([
      403,
      "This action needs the admin role; you are finance",
    ]);
    const allowed = await t.app.inject({
      method: "PATCH",
      url: `/api/v1/users/${target.id}`,
      headers: admin.headers("PATCH"),
      payload: { role: "finance" },
    });
    expect([allowed.statusCode, allowed.json().role]).toEqual([200, "finance"]);
  });
});

describe("privileged fields over MCP: the key's scope and its mcp_access grant both count", () => {
  const cases: { scope: Scope; grant: Scope; refusal?: string }[] = [
    { scope: "write", grant: "write", refusal: "needs the admin scope; this key has write" },
    { scope: "admin", grant: "write", refusal: "needs mcp_access admin" },
    { scope: "admin", grant: "admin" },
  ];
  it.each(cases)("a $scope key granted $grant", async ({ scope, grant, refusal }) => {
    const client = await connect(mcpOrigin, (await mcpKey(t, scope, grant)).key);
    try {
      const target = await createUser(t);
      const email = uniqueEmail("mcp");
      const results = [
        await call(client, "update_user", { id: target.id, role: "admin" }),
        await call(client, "update_user", { id: target.id, active: false }),
        await call(client, "create_user", { name: "Mallory", email, role: "admin" as Role }),
      ];
      for (const result of results) {
        if (refusal) expect(errorIn(result).message).toContain(refusal);
        else expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      }
      const after = await asAdmin(target.id);
      expect([after.role, after.active]).toEqual(refusal ? ["rep", true] : ["admin", false]);
      expect(await listByEmail(email)).toBe(refusal ? 0 : 1);
    } finally {
      await client.close();
    }
  });
});

async function listByEmail(email: string): Promise<number> {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/v1/users?email=${encodeURIComponent(email)}`,
    headers: bearer(keys.admin),
  });
  return (res.json() as { meta: { total: number } }).meta.total;
}
