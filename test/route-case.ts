import type { HTTPMethods } from "fastify";
import type { Scope } from "../src/context.js";
import type { TestApp } from "./harness.js";

/** One row of the security tables: how to call a route successfully, as a lesser key, and badly. */
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
  /** A fresh value for a path parameter other than {id} (e.g. {external_id}). */
  param?: () => string;
  /** Input that fails validation, and the `details[].param` that must name the problem. */
  invalid: { body?: unknown; query?: string; id?: string; param: string };
}
