import type { HTTPMethods } from "fastify";
import { describe, expect, it } from "vitest";
import type { Scope } from "../src/context.js";
import { errorOf, freshIp, unknownId } from "./factories.js";
import { bearer, type TestApp } from "./harness.js";

/**
 * The route table and the security-table runner (ARCHITECTURE.md "Tests through the real stack"): the
 * served OpenAPI document is the list of routes, so a new route is covered by the tests that walk it
 * (the gate, input validation) without a row, and the security table fails, naming it, until it has one.
 */

/** One JSON schema node of the OpenAPI document, as far as these tests read it. */
export interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  enum?: unknown[];
  $ref?: string;
  allOf?: SchemaNode[];
}

/** One operation of the route table (the served OpenAPI document), with what its input looks like. */
export interface Operation {
  method: HTTPMethods;
  /** As documented: `/api/v1/deals/{id}`. */
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** The query parameters it requires (`period` of GET /users/statements). */
  requiredQuery: string[];
  /** Top-level body properties; undefined when the operation takes no body. */
  body: Record<string, SchemaNode> | undefined;
  /** The body's media type (application/json, or the imports' text/csv); undefined with no body. */
  bodyType: string | undefined;
  /** Who may call it: a key or a session (most), no one in particular (sign-in), only a session. */
  access: "key" | "public" | "session";
  /** Every property name anywhere in its success (2xx) JSON response, through `$ref`s: what it can answer with. */
  responseFields: ReadonlySet<string>;
}

interface DocOperation {
  security?: Record<string, string[]>[];
  parameters?: ({ in: string; name: string; required?: boolean } | { $ref: string })[];
  requestBody?: { content: Record<string, { schema?: SchemaNode }> };
  responses?: Record<string, { content?: Record<string, { schema?: SchemaNode }> }>;
}

/** The property names of a schema and of every schema under it (each component walked once). */
function propertyNames(node: SchemaNode | undefined, schemas: Record<string, SchemaNode>, into = new Set<string>()) {
  const seen = new Set<string>();
  const walk = (n: SchemaNode | undefined): void => {
    if (!n) return;
    if (n.$ref) {
      const name = n.$ref.split("/").pop()!;
      if (!seen.has(name)) {
        seen.add(name);
        walk(schemas[name]);
      }
      return;
    }
    for (const [name, child] of Object.entries(n.properties ?? {})) {
      into.add(name);
      walk(child);
    }
    for (const child of [...(n.anyOf ?? []), ...(n.oneOf ?? []), ...(n.allOf ?? [])]) walk(child);
    walk(n.items);
    if (typeof n.additionalProperties === "object") walk(n.additionalProperties);
  };
  walk(node);
  return into;
}

function accessOf(security: DocOperation["security"]): Operation["access"] {
  if (security === undefined) return "key";
  if (security.length === 0) return "public";
  return security.some((s) => "bearerAuth" in s) ? "key" : "session";
}

/** Every /api/v1 operation of the served document, sorted by path then method. */
export async function operations(t: TestApp): Promise<Operation[]> {
  const res = await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" });
  const doc = res.json() as {
    paths: Record<string, Record<string, DocOperation>>;
    components: {
      parameters: Record<string, { in: string; name: string; required?: boolean }>;
      schemas: Record<string, SchemaNode>;
    };
  };
  // Shared parameters (Id, Page, PerPage) are $refs into components.parameters.
  const resolve = (p: { in: string; name: string; required?: boolean } | { $ref: string }) =>
    "$ref" in p ? doc.components.parameters[p.$ref.split("/").pop()!]! : p;
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith("/api/v1/"))
    .flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => {
        const params = (op.parameters ?? []).map(resolve);
        const names = (where: string) => params.filter((p) => p.in === where).map((p) => p.name);
        // A body shared by several operations (UpdateCompPlan) is a $ref to its component.
        const written = op.requestBody?.content["application/json"]?.schema as
          | (SchemaNode & { $ref?: string })
          | undefined;
        const schema = written?.$ref ? doc.components.schemas[written.$ref.split("/").pop()!] : written;
        return {
          method: method.toUpperCase() as HTTPMethods,
          path,
          pathParams: names("path"),
          queryParams: names("query"),
          requiredQuery: params.filter((p) => p.in === "query" && p.required).map((p) => p.name),
          body: op.requestBody ? (schema?.properties ?? {}) : undefined,
          bodyType: Object.keys(op.requestBody?.content ?? {})[0],
          access: accessOf(op.security),
          responseFields: Object.entries(op.responses ?? {})
            .filter(([status]) => status.startsWith("2"))
            .reduce(
              (names, [, r]) => propertyNames(r.content?.["application/json"]?.schema, doc.components.schemas, names),
              new Set<string>(),
            ),
        };
      }),
    )
    .sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}

/** One row of the security table: how to call a route successfully, as a lesser key, and badly. */
export interface RouteCase {
  method: HTTPMethods;
  /** As the OpenAPI document writes it: `{id}` for the record id. */
  path: string;
  scope: Scope;
  /** Status of a successful call with a key of exactly `scope`. */
  ok: number;
  /** For `{id}` routes: creates a real record and returns its id. */
  record?: (t: TestApp) => Promise<string>;
  /** Prefix of ids of this resource, for the unknown-id check. */
  idPrefix?: string;
  /** A valid body (a function when values must be unique). */
  body?: () => unknown;
  /** Query string a successful call needs (e.g. the statement's period). */
  query?: string;
  /** Headers every call sends (the CSV imports' `Content-Type: text/csv`). */
  headers?: Record<string, string>;
  /** A fresh value for a path parameter other than {id} (e.g. {external_id}). */
  param?: () => string;
  /** Input that fails validation, and the `details[].param` that must name the problem. */
  invalid: { body?: unknown; query?: string; id?: string; param: string };
}

/** Fails naming every documented operation without a row, and every row naming no operation. */
export function expectRowPerOperation(rows: RouteCase[], documented: Pick<Operation, "method" | "path">[]): void {
  const names = new Set(rows.map((r) => `${r.method} ${r.path}`));
  const operationNames = documented.map((r) => `${r.method} ${r.path}`);
  const missing = operationNames.filter((name) => !names.has(name));
  expect(missing, "add a row to the security table for each of these").toEqual([]);
  const extra = [...names].filter((name) => !operationNames.includes(name));
  expect(extra, "rows for routes that do not exist").toEqual([]);
}

/** One request to a row's route; `id` fills its path parameter (a new record or value when absent). */
export async function callRow(
  t: TestApp,
  route: RouteCase,
  options: { key: string; id?: string; body?: unknown; query?: string; headers?: Record<string, string> },
) {
  const id = options.id ?? (route.record ? await route.record(t) : route.param?.());
  const path = route.path.replace(/\{\w+\}/, id ?? "");
  const body = "body" in options ? options.body : route.body?.();
  const query = options.query ?? route.query;
  return t.app.inject({
    method: route.method,
    url: query ? `${path}?${query}` : path,
    headers: { ...route.headers, ...options.headers, ...bearer(options.key) },
    remoteAddress: freshIp(),
    ...(body !== undefined ? { payload: body as object } : {}),
  });
}

const BELOW: Record<Scope, Scope | undefined> = { read: undefined, write: "read", admin: "write" };

/** Per row: success with a key of its scope, 403 for the scope below, 404 for an unknown id, 422 for bad input. */
export function describeRouteCases(t: TestApp, rows: RouteCase[], keyOf: (scope: Scope) => string): void {
  describe.each(rows)("$method $path: scope, records, validation", (route) => {
    it(`succeeds with a ${route.scope} key (${route.ok})`, async () => {
      const res = await callRow(t, route, { key: keyOf(route.scope) });
      expect(res.statusCode, res.body).toBe(route.ok);
    });

    const below = BELOW[route.scope];
    if (below) {
      it(`a ${below} key → 403 naming the ${route.scope} scope, before 404 and 422`, async () => {
        const res = await callRow(t, route, { key: keyOf(below), id: "x", body: { nonsense: true } });
        expect([res.statusCode, errorOf(res).code], res.body).toEqual([403, "forbidden"]);
        expect(errorOf(res).message).toContain(`needs the ${route.scope} scope`);
      });
    }

    const { idPrefix } = route;
    if (idPrefix) {
      it("an unknown id → 404", async () => {
        const id = unknownId(idPrefix);
        const res = await callRow(t, route, { key: keyOf(route.scope), id });
        expect([res.statusCode, errorOf(res).code], res.body).toEqual([404, "not_found"]);
        expect(errorOf(res).message).toContain(id);
      });
    }

    it(`invalid input → 422 validation_error naming ${route.invalid.param}`, async () => {
      const { invalid } = route;
      const res = await callRow(t, route, {
        key: keyOf(route.scope),
        ...(invalid.id ? { id: invalid.id } : {}),
        ...(invalid.query ? { query: invalid.query } : {}),
        ...("body" in invalid ? { body: invalid.body } : {}),
      });
      expect(res.statusCode, res.body).toBe(422);
      expect(errorOf(res).code).toBe("validation_error");
      expect(errorOf(res).details?.map((d) => d.param)).toContain(invalid.param);
    });
  });
}
