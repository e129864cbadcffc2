import type { HTTPMethods, LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import { freshIp, parseErrorBody } from "../factories.js";
import { bearer, type TestApp } from "../harness.js";

/** One JSON schema node of the OpenAPI document, as far as these tests read it. */
export interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  enum?: unknown[];
}

/** One operation of the route table (the served OpenAPI document), with what its input looks like. */
export interface Operation {
  method: HTTPMethods;
  /** As documented: `/api/v1/deals/{id}`. */
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** Top-level body properties; undefined when the operation takes no body. */
  body: Record<string, SchemaNode> | undefined;
}

interface DocOperation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema?: SchemaNode }> };
}

/** Every /api/v1 operation of the served document: the route table, so a new route is covered by itself. */
export async function operations(t: TestApp): Promise<Operation[]> {
  const res = await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" });
  const doc = res.json() as { paths: Record<string, Record<string, DocOperation>> };
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith("/api/v1/"))
    .flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => {
        const params = op.parameters ?? [];
        const names = (where: string) => params.filter((p) => p.in === where).map((p) => p.name);
        const schema = op.requestBody?.content["application/json"]?.schema;
        return {
          method: method.toUpperCase() as HTTPMethods,
          path,
          pathParams: names("path"),
          queryParams: names("query"),
          body: op.requestBody ? (schema?.properties ?? {}) : undefined,
        };
      }),
    )
    .sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}

export const WRITE_METHODS = new Set(["POST", "PUT", "PATCH"]);

/** The operation's URL with every path parameter set to `value`. */
export function urlOf(op: Operation, value = "x_1", query?: string): string {
  const path = op.path.replace(/\{\w+\}/g, encodeURIComponent(value));
  return query ? `${path}?${query}` : path;
}

/** Does this body property hold text (a string, or a nullable one)? */
export function isText(node: SchemaNode): boolean {
  const types = [node.type, ...(node.anyOf ?? []).map((n) => n.type)].flat();
  return types.includes("string") && !node.enum;
}

/** Does this body property hold a map (`{[key]: value}`)? */
export function isMap(node: SchemaNode): boolean {
  const nodes = [node, ...(node.anyOf ?? [])];
  return nodes.some((n) => n.type === "object" && typeof n.additionalProperties === "object");
}

export async function send(
  t: TestApp,
  key: string,
  op: Pick<Operation, "method">,
  url: string,
  payload?: string | object,
): Promise<LightMyRequestResponse> {
  // A second per request keeps every key under the 100-per-minute limit however long the table grows.
  t.clock?.advance(1000);
  const headers: Record<string, string> = bearer(key);
  if (typeof payload === "string") headers["content-type"] = "application/json";
  return t.app.inject({
    method: op.method,
    url,
    headers,
    remoteAddress: freshIp(),
    ...(payload !== undefined ? { payload } : {}),
  });
}

/** A 4xx with the contract's error body: code, message and request id equal to the Request-Id header. */
export function expectContractError(res: LightMyRequestResponse, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  const error = parseErrorBody(res.json());
  expect(error.code).toBe(code);
  expect(error.request_id).toBe(res.headers["request-id"]);
  return error;
}
