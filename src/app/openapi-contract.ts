import { z } from "zod";
import { ErrorBody } from "../errors.js";
import { ENUM_LIST } from "../http/input-fields.js";
import {
  discriminateLineKinds,
  dropSafeIntegerBounds,
  enumListParameter,
  ref,
  sharePageMeta,
  shareTimestamps,
  TIMESTAMP,
} from "./openapi-schemas.js";

/**
 * What the contract promises on every operation but no route schema states: the error responses (one
 * named `Error` schema, shared responses by `$ref`), the headers of API.md §2-3 and the conditional and
 * idempotent requests. The route transform marks each operation with EXTENSION; `applyContract` turns
 * the marks into `$ref`s once the whole document exists.
 */
export const EXTENSION = "x-cts-contract";

export interface ContractMarks {
  errors: number[];
  public: boolean;
  /** A write answering a record: its 200/201 carry the record's ETag, a 201 its Location (API.md §20 (e)). */
  record: boolean;
}

/** Statuses a route returns beyond the ones its shape implies (the service raises them). */
const EXTRA_ERRORS: Record<string, number[]> = {
  "DELETE /api/v1/deals/{id}": [409],
  "DELETE /api/v1/plan-assignments/{id}": [409],
  "GET /readyz": [503],
  "POST /api/v1/auth/invitations/accept": [404, 409, 429, 503],
  "POST /api/v1/auth/login": [401, 429, 503],
  "POST /api/v1/auth/password-reset": [429, 503],
  "POST /api/v1/auth/password-reset/confirm": [404, 409, 429, 503],
};

/**
 * What any operation may answer before its route is reached: malformed HTTP or a header that may come
 * once sent twice (400), a method its path does not have (405), a request that does not arrive in time
 * (408), an unknown query parameter (422), headers over 16 KiB (431), a bug (500).
 */
const EVERY_OPERATION = [400, 405, 408, 422, 431, 500];
/** Methods whose body Fastify reads (a DELETE's too): too large (413), not JSON (415). */
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const WRITE_METHODS = new Set(["POST", "PUT", "PATCH"]);

const ERROR_RESPONSES: Record<number, [name: string, description: string]> = {
  400: [
    "BadRequest",
    "Malformed JSON or JSON nested deeper than 64 levels, Authorization or Idempotency-Key sent twice, a path that is not UTF-8, or malformed HTTP (bad_request)",
  ],
  401: [
    "Unauthorized",
    "Missing, malformed, unknown, revoked, expired or other-environment key, or no live session (unauthorized)",
  ],
  403: ["Forbidden", "The key's scope or the person's role is too small, or a session's CSRF check failed (forbidden)"],
  404: ["NotFound", "Unknown record (not_found)"],
  405: ["MethodNotAllowed", "The path does not take this method; Allow lists those it takes (method_not_allowed)"],
  408: ["RequestTimeout", "The request did not arrive in full within CTS_REQUEST_TIMEOUT seconds (request_timeout)"],
  409: ["Conflict", "Conflict with the current state (conflict, invalid_transition, idempotency_key_in_use)"],
  412: ["PreconditionFailed", "If-Match names an older version of the record (precondition_failed)"],
  413: ["PayloadTooLarge", "Body over 1 MiB; a CSV import over 32 MiB or 50,000 rows (payload_too_large)"],
  415: ["UnsupportedMediaType", "Body is not application/json; a CSV import's not text/csv (unsupported_media_type)"],
  422: ["ValidationError", "Invalid input; details name each problem (validation_error, idempotency_key_reused)"],
  429: ["RateLimited", "Rate limit exceeded; see Retry-After (rate_limited)"],
  431: ["HeadersTooLarge", "The request's headers are over 16 KiB (headers_too_large)"],
  500: ["InternalError", "A bug; quote the request id (internal_error)"],
  503: ["Unavailable", "Database unavailable or shutting down; see Retry-After (unavailable)"],
};

/** Answers given before a key or session is counted (or before a request is read at all) carry no RateLimit headers. */
const UNCOUNTED = new Set([401, 431]);
/** 4xx an Idempotency-Key stores (given by the route itself), so a retry may replay them. */
const REPLAYABLE = new Set([404, 409, 422]);

/** The error statuses an operation documents, from what its route declares. */
export function errorStatuses(
  method: string,
  url: string,
  route: { public?: boolean; scope?: string; sessionOnly?: boolean },
  source: Record<string, unknown>,
): number[] {
  const codes = [...EVERY_OPERATION, ...(EXTRA_ERRORS[`${method} ${url.replace(/:(\w+)/g, "{$1}")}`] ?? [])];
  if (BODY_METHODS.has(method)) codes.push(413, 415);
  if (!route.public) {
    codes.push(401, 429, 503);
    if (route.scope || route.sessionOnly) codes.push(403);
    if (source.params) codes.push(404);
    if (WRITE_METHODS.has(method)) codes.push(409);
    if (method === "PATCH" || method === "PUT") codes.push(412);
  }
  return [...new Set(codes)].sort();
}

const HEADERS = {
  RequestId: { description: "Identifies this request in logs and error bodies.", schema: { type: "string" } },
  ETag: {
    description:
      "Strong validator of the body; send it back in If-None-Match. A compressed body's ends -br or -gzip inside the quotes; every variant matches.",
    schema: { type: "string" },
  },
  Link: { description: 'RFC 8288 pagination links (rel="first", "prev", "next", "last").', schema: { type: "string" } },
  RecordETag: {
    description:
      "The written record's ETag, what a GET of it now returns: send it in If-Match on the next PATCH or PUT.",
    schema: { type: "string" },
  },
  Location: { description: "The URL of the created record (its GET).", schema: { type: "string", format: "uri" } },
  RateLimitPolicy: {
    description:
      'The limit this request counted against: `"per-key";q=100;w=60` for a key, `"per-user";q=300;w=60` for a session.',
    schema: { type: "string", examples: ['"per-key";q=100;w=60'] },
  },
  RateLimit: {
    description: "What is left in the window: `r` requests, `t` seconds until one frees up (0 while r > 0).",
    schema: { type: "string", examples: ['"per-key";r=99;t=0'] },
  },
  RetryAfter: { description: "Seconds to wait before retrying.", schema: { type: "integer", minimum: 1 } },
  Allow: {
    description: "The methods this path takes, e.g. `GET, POST`.",
    required: true,
    schema: { type: "string", examples: ["GET, POST"] },
  },
  IdempotentReplayed: {
    description: "`true`: the stored answer to an earlier request with this Idempotency-Key and body, not a new one.",
    schema: { type: "string", enum: ["true"] },
  },
  ContentDisposition: {
    description: 'The export as a file to save: `attachment; filename="commissions.csv"`.',
    schema: { type: "string" },
  },
};

const PARAMETERS = {
  IdempotencyKey: {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description:
      "1-255 characters. A retry with the same key and body within 24 h replays the stored response (`Idempotent-Replayed: true`).",
    schema: { type: "string", minLength: 1, maxLength: 255 },
  },
  IfNoneMatch: {
    name: "If-None-Match",
    in: "header",
    required: false,
    description: "An ETag from an earlier response: 304 with no body when it still matches.",
    schema: { type: "string" },
  },
  Id: {
    name: "id",
    in: "path",
    required: true,
    description: "The record's id (`deal_…`, `usr_…`, …).",
    schema: { type: "string", minLength: 1, maxLength: 255 },
  },
  IfMatch: {
    name: "If-Match",
    in: "header",
    required: false,
    description: "The ETag of the record as last read: 412 precondition_failed when it has changed since.",
    schema: { type: "string" },
  },
};

type Json = Record<string, unknown>;
type Response = { description?: string; headers?: Json; content?: Record<string, Json>; $ref?: string };

const RATE_LIMIT_HEADERS = {
  "RateLimit-Policy": ref("headers", "RateLimitPolicy"),
  RateLimit: ref("headers", "RateLimit"),
};

function errorResponse(status: number, description: string): Json {
  return {
    description,
    headers: {
      "Request-Id": ref("headers", "RequestId"),
      ...(status === 405 ? { Allow: ref("headers", "Allow") } : {}),
      ...(status === 429 || status === 503 ? { "Retry-After": ref("headers", "RetryAfter") } : {}),
      ...(UNCOUNTED.has(status) ? {} : RATE_LIMIT_HEADERS),
      ...(REPLAYABLE.has(status) ? { "Idempotent-Replayed": ref("headers", "IdempotentReplayed") } : {}),
    },
    content: { "application/json": { schema: ref("schemas", "Error") } },
  };
}

function components(): Json {
  const { $schema: _, ...error } = z.toJSONSchema(ErrorBody, { target: "draft-2020-12" }) as Json;
  const responses: Record<string, Json> = Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([status, [name, description]]) => [
      name,
      errorResponse(Number(status), description),
    ]),
  );
  responses.NotModified = {
    description: "The ETag sent in If-None-Match still matches: no body.",
    headers: { "Request-Id": ref("headers", "RequestId"), ETag: ref("headers", "ETag"), ...RATE_LIMIT_HEADERS },
  };
  return { schemas: { Error: error }, responses, headers: HEADERS, parameters: { ...PARAMETERS, ...sharedParameters } };
}

const SUCCESS_NAMES: Record<string, string> = { "200": "OK", "201": "Created", "202": "Accepted", "204": "No Content" };

/** Parameters found in the operations and shared from the first one (the pagination query of PageQuery). */
const sharedParameters: Record<string, Json> = {};

function decorate(method: string, operation: Json, marks: ContractMarks): void {
  const responses = operation.responses as Record<string, Response>;
  const parameters = (operation.parameters as Json[] | undefined) ?? [];
  // A POST's Link could not be followed (a link is a GET): only a GET list sends one.
  const isList = method === "GET" && parameters.some((p) => p.in === "query" && p.name === "page");
  const idempotent = !marks.public && WRITE_METHODS.has(method);
  for (const [status, response] of Object.entries(responses)) {
    if (!status.startsWith("2")) continue;
    const headers: Json = { "Request-Id": ref("headers", "RequestId"), ...response.headers };
    if (!marks.public) Object.assign(headers, RATE_LIMIT_HEADERS);
    if (method === "GET") headers.ETag = ref("headers", "ETag");
    if (marks.record && (status === "200" || status === "201")) headers.ETag = ref("headers", "RecordETag");
    if (marks.record && status === "201") headers.Location = ref("headers", "Location");
    if (isList) headers.Link = ref("headers", "Link");
    if (idempotent) headers["Idempotent-Replayed"] = ref("headers", "IdempotentReplayed");
    if (response.content?.["text/csv"]) headers["Content-Disposition"] = ref("headers", "ContentDisposition");
    response.headers = headers;
    // Fastify's placeholder says nothing to a reader of the docs; the status's own name does.
    if (response.description === "Default Response") response.description = SUCCESS_NAMES[status] ?? "Success";
  }
  if (method === "GET" && responses["200"]) {
    responses["304"] = ref("responses", "NotModified");
    parameters.push(ref("parameters", "IfNoneMatch"));
  }
  if (idempotent) parameters.push(ref("parameters", "IdempotencyKey"));
  if (method === "PATCH" || method === "PUT") parameters.push(ref("parameters", "IfMatch"));
  // The parameters every list or record route repeats are shared: one definition each, referenced.
  for (const [i, p] of parameters.entries()) {
    if (p.in === "path" && p.name === "id") parameters[i] = ref("parameters", "Id");
    else if (p.in === "query" && (p.schema as Json | undefined)?.[ENUM_LIST]) parameters[i] = enumListParameter(p);
    else if (p.in === "query" && (p.name === "page" || p.name === "per_page")) {
      const name = p.name === "page" ? "Page" : "PerPage";
      sharedParameters[name] ??= p;
      parameters[i] = ref("parameters", name);
    }
  }
  if (parameters.length > 0) operation.parameters = parameters;
  for (const status of marks.errors) responses[String(status)] = ref("responses", ERROR_RESPONSES[status]![0]);
  operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

/** Turns every operation's marks into shared components and `$ref`s. */
export function applyContract(doc: { paths?: Record<string, Record<string, Json>>; components?: Json }): void {
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      const marks = operation[EXTENSION] as ContractMarks | undefined;
      delete operation[EXTENSION];
      if (marks) decorate(method.toUpperCase(), operation, marks);
    }
  }
  dropSafeIntegerBounds(doc);
  const schemas = (doc.components?.schemas ?? {}) as Record<string, Json>;
  sharePageMeta(doc.paths ?? {}, schemas);
  for (const name of ["Commission", "PreviewLine"]) discriminateLineKinds(schemas, name);
  const shared = components();
  doc.components ??= {};
  const own = doc.components as Record<string, Json>;
  for (const [kind, entries] of Object.entries(shared)) own[kind] = { ...(own[kind] ?? {}), ...(entries as Json) };
  dropSafeIntegerBounds(own.parameters);
  shareTimestamps(doc.paths);
  shareTimestamps(own.schemas);
  (own.schemas as Json).Timestamp = TIMESTAMP;
}
