import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import { freshIp, parseErrorBody } from "../factories.js";
import { bearer, type TestApp } from "../harness.js";
import type { Operation, SchemaNode } from "../route-case.js";
import { type SignedInSession, signedInAs } from "../sessions.js";

export const WRITE_METHODS = new Set(["POST", "PUT", "PATCH"]);

/** A valid value for each query parameter an operation may require (a new one must be added here). */
const REQUIRED_QUERY_VALUES: Record<string, string> = {
  period: "2026-Q3",
  base: "USD",
  month: "2026-01",
  from: "2026-01",
  to: "2026-12",
};

/** Operations that need one of several optional parameters (API.md §17's schedule: a filter), and a valid one. */
const ONE_OF_QUERY: Record<string, { names: string[]; valid: string }> = {
  "/api/v1/accounting/schedule": { names: ["deal_id", "user_id", "month"], valid: "month=2026-01" },
};

/** Path parameters that are not ids, and a valid value of each (a day's exchange rates: its date). */
export const NOT_IDS: Record<string, string> = { date: "2026-01-01" };

/**
 * The operation's URL with every path parameter set to `value`, `query` and, for each query parameter
 * the operation requires that `query` does not name, a valid value: a test of one parameter then
 * meets no other parameter's error.
 */
export function urlOf(op: Operation, value = "x_1", query?: string): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(NOT_IDS[name] ?? value));
  const named = new Set([...new URLSearchParams(query ?? "").keys()]);
  const required = op.requiredQuery
    .filter((name) => !named.has(name))
    .map((name) => {
      const valid = REQUIRED_QUERY_VALUES[name];
      if (valid === undefined) throw new Error(`urlOf: no valid value for the required query parameter ${name}`);
      return `${name}=${encodeURIComponent(valid)}`;
    });
  const oneOf = ONE_OF_QUERY[op.path];
  if (oneOf && !oneOf.names.some((name) => named.has(name))) required.push(oneOf.valid);
  const parts = [query, ...required].filter((part) => part !== undefined && part !== "");
  return parts.length > 0 ? `${path}?${parts.join("&")}` : path;
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

const sessions = new WeakMap<TestApp, Promise<SignedInSession>>();

/** The admin session session-only operations are called with (creating it writes a user and a row). */
export function sessionOf(t: TestApp): Promise<SignedInSession> {
  if (!sessions.has(t)) sessions.set(t, signedInAs(t, { role: "admin" }));
  return sessions.get(t)!;
}

/** The key, or for a session-only operation an admin's session (cookie and CSRF token) of this app. */
async function credentials(t: TestApp, key: string, op: SentOperation): Promise<Record<string, string>> {
  if (op.access !== "session") return bearer(key);
  return (await sessionOf(t)).headers(op.method);
}

/** What `send` needs of an operation: its method and, for a session-only one, that it is. */
type SentOperation = Pick<Operation, "method"> & Partial<Pick<Operation, "access">>;

export async function send(
  t: TestApp,
  key: string,
  op: SentOperation,
  url: string,
  payload?: string | object,
  contentType = "application/json",
): Promise<LightMyRequestResponse> {
  // A second per request keeps every key under the 100-per-minute limit however long the table grows.
  t.clock?.advance(1000);
  const headers = await credentials(t, key, op);
  if (typeof payload === "string") headers["content-type"] = contentType;
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
