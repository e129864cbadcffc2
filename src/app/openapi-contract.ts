import { z } from "zod";
import { ErrorBody } from "../errors.js";
import { Timestamp } from "../http/date-fields.js";

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

/** The statuses a public sign-in route answers (no key, but a body, failed sign-ins and their limits). */
const SIGN_IN_ERRORS = [400, 401, 413, 415, 422, 429, 500, 503];

/** Statuses a route returns beyond the ones its shape implies (the service raises them). */
const EXTRA_ERRORS: Record<string, number[]> = {
  "DELETE /api/v1/deals/{id}": [409],
  "DELETE /api/v1/plan-assignments/{id}": [409],
  "GET /readyz": [503],
  "POST /api/v1/auth/invitations/accept": [400, 404, 409, 413, 415, 422, 429, 500, 503],
  "POST /api/v1/auth/login": SIGN_IN_ERRORS,
  "GET /api/v1/auth/oidc/start": [404, 422, 503],
  "GET /api/v1/auth/oidc/callback": [404, 422, 429],
};

const ERROR_RESPONSES: Record<number, [name: string, description: string]> = {
  400: ["BadRequest", "Malformed JSON or a repeated header (bad_request)"],
  401: [
    "Unauthorized",
    "Missing, malformed, unknown, revoked, expired or other-environment key, or no live session (unauthorized)",
  ],
  403: ["Forbidden", "The key's scope or the person's role is too small, or a session's CSRF check failed (forbidden)"],
  404: ["NotFound", "Unknown record (not_found)"],
  409: ["Conflict", "Conflict with the current state (conflict, invalid_transition, idempotency_key_in_use)"],
  412: ["PreconditionFailed", "If-Match names an older version of the record (precondition_failed)"],
  413: ["PayloadTooLarge", "Body over 1 MiB (payload_too_large)"],
  415: ["UnsupportedMediaType", "Body is not application/json (unsupported_media_type)"],
  422: ["ValidationError", "Invalid input; details name each problem (validation_error, idempotency_key_reused)"],
  429: ["RateLimited", "Rate limit exceeded; see Retry-After (rate_limited)"],
  500: ["InternalError", "A bug; quote the request id (internal_error)"],
  503: ["Unavailable", "Database unavailable or shutting down; see Retry-After (unavailable)"],
};

/** The error statuses an operation documents, from what its route declares. */
export function errorStatuses(
  method: string,
  url: string,
  route: { public?: boolean; scope?: string; sessionOnly?: boolean },
  source: Record<string, unknown>,
): number[] {
  const codes = [...(EXTRA_ERRORS[`${method} ${url.replace(/:(\w+)/g, "{$1}")}`] ?? [])];
  if (!route.public) {
    codes.push(401, 429, 500, 503);
    if (route.scope || route.sessionOnly) codes.push(403);
    if (source.params) codes.push(404);
    if (source.querystring || source.body || source.params) codes.push(422);
    if (source.body) codes.push(400, 413, 415);
    if (method === "POST" || method === "PATCH" || method === "PUT") codes.push(409);
    if (method === "PATCH" || method === "PUT") codes.push(412);
  }
  return [...new Set(codes)].sort();
}

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

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
  RateLimitPolicy: { description: 'The key\'s limit, e.g. `"default";q=100;w=60`.', schema: { type: "string" } },
  RateLimit: { description: 'What is left in the window, e.g. `"default";r=99;t=60`.', schema: { type: "string" } },
  RetryAfter: { description: "Seconds to wait before retrying.", schema: { type: "integer", minimum: 1 } },
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
  Id: { name: "id", in: "path", required: true, schema: { type: "string", minLength: 1, maxLength: 255 } },
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

function components(): Json {
  const { $schema: _, ...error } = z.toJSONSchema(ErrorBody, { target: "draft-2020-12" }) as Json;
  const withRetry = new Set([429, 503]);
  const responses: Record<string, Json> = Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([status, [name, description]]) => [
      name,
      {
        description,
        headers: {
          "Request-Id": ref("headers", "RequestId"),
          ...(withRetry.has(Number(status)) ? { "Retry-After": ref("headers", "RetryAfter") } : {}),
        },
        content: { "application/json": { schema: ref("schemas", "Error") } },
      },
    ]),
  );
  responses.NotModified = {
    description: "The ETag sent in If-None-Match still matches: no body.",
    headers: { "Request-Id": ref("headers", "RequestId"), ETag: ref("headers", "ETag") },
  };
  return { schemas: { Error: error }, responses, headers: HEADERS, parameters: { ...PARAMETERS, ...sharedParameters } };
}

/** Routes that answer CSV to `Accept: text/csv` (API.md §6). */
const CSV_OPERATIONS = new Set(["GET /api/v1/commissions", "GET /api/v1/users/{id}/statement"]);

const SUCCESS_NAMES: Record<string, string> = { "200": "OK", "201": "Created", "202": "Accepted", "204": "No Content" };

/** Parameters found in the operations and shared from the first one (the pagination query of PageQuery). */
const sharedParameters: Record<string, Json> = {};

function decorate(method: string, path: string, operation: Json, marks: ContractMarks): void {
  const responses = operation.responses as Record<string, Response>;
  const parameters = (operation.parameters as Json[] | undefined) ?? [];
  const isList = parameters.some((p) => p.in === "query" && p.name === "page");
  for (const [status, response] of Object.entries(responses)) {
    if (!status.startsWith("2")) continue;
    const headers: Json = { "Request-Id": ref("headers", "RequestId"), ...response.headers };
    if (!marks.public) {
      headers["RateLimit-Policy"] = ref("headers", "RateLimitPolicy");
      headers.RateLimit = ref("headers", "RateLimit");
    }
    if (method === "GET") headers.ETag = ref("headers", "ETag");
    if (marks.record && (status === "200" || status === "201")) headers.ETag = ref("headers", "RecordETag");
    if (marks.record && status === "201") headers.Location = ref("headers", "Location");
    if (isList) headers.Link = ref("headers", "Link");
    response.headers = headers;
    // Fastify's placeholder says nothing to a reader of the docs; the status's own name does.
    if (response.description === "Default Response") response.description = SUCCESS_NAMES[status] ?? "Success";
    if (CSV_OPERATIONS.has(`${method} ${path}`) && status === "200" && response.content) {
      response.content["text/csv"] = { schema: { type: "string", description: "RFC 4180 CSV, UTF-8." } };
    }
  }
  // A GET that answers a body (not a browser redirect such as /auth/oidc/start) may answer 304.
  if (method === "GET" && responses["200"]) {
    responses["304"] = ref("responses", "NotModified");
    parameters.push(ref("parameters", "IfNoneMatch"));
  }
  if (!marks.public && (method === "POST" || method === "PATCH" || method === "PUT")) {
    parameters.push(ref("parameters", "IdempotencyKey"));
  }
  if (method === "PATCH" || method === "PUT") parameters.push(ref("parameters", "IfMatch"));
  // The parameters every list or record route repeats are shared: one definition each, referenced.
  for (const [i, p] of parameters.entries()) {
    if (p.in === "path" && p.name === "id") parameters[i] = ref("parameters", "Id");
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

/**
 * zod writes `.int()` as bounds of ±(2^53 − 1), which no contract states and which example generators
 * pick as sample values (`page: -9007199254740991`): a bound that only says "safe integer" is dropped.
 */
function dropSafeIntegerBounds(node: unknown): void {
  if (Array.isArray(node)) for (const item of node) dropSafeIntegerBounds(item);
  else if (node && typeof node === "object") {
    const schema = node as Json;
    if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
    if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
    for (const value of Object.values(schema)) dropSafeIntegerBounds(value);
  }
}

const LINE_KINDS = { plan: "PlanExplanation", spiff: "SpiffExplanation", adjustment: "AdjustmentExplanation" };

/**
 * A commission line's explanation follows its kind. The zod schema (which the serializer and MCP use)
 * can only say "one of three"; the document says which, as a union discriminated by `kind`, so that
 * generated clients narrow `line.explanation` to `.bands` once they test `line.kind === "plan"`.
 */
function discriminateLineKinds(schemas: Record<string, Json>, name: string): void {
  const line = schemas[name];
  const properties = line?.properties as Record<string, Json> | undefined;
  if (!line || !properties?.kind || !properties.explanation) return;
  const { kind: _kind, explanation: _explanation, ...rest } = properties;
  const { additionalProperties: _closed, ...open } = line;
  schemas[`${name}Base`] = {
    ...open,
    properties: rest,
    required: (line.required as string[]).filter((key) => key !== "kind" && key !== "explanation"),
  };
  const variants = Object.entries(LINE_KINDS).map(([kind, explanation]) => {
    const variant = `${kind[0]!.toUpperCase()}${kind.slice(1)}${name}`;
    schemas[variant] = {
      allOf: [
        ref("schemas", `${name}Base`),
        {
          type: "object",
          required: ["kind", "explanation"],
          properties: { kind: { type: "string", const: kind }, explanation: ref("schemas", explanation) },
        },
      ],
    };
    return [kind, `#/components/schemas/${variant}`] as const;
  });
  schemas[name] = {
    description: line.description,
    oneOf: variants.map(([, target]) => ({ $ref: target })),
    discriminator: { propertyName: "kind", mapping: Object.fromEntries(variants) },
  };
}

/** Every list's `meta` is the same object: one `PageMeta` schema, referenced, instead of a copy per list. */
function sharePageMeta(paths: Record<string, Record<string, Json>>, schemas: Record<string, Json>): void {
  let shared: string | undefined;
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      const ok = (operation.responses as Record<string, Response> | undefined)?.["200"];
      const body = ok?.content?.["application/json"]?.schema as { properties?: Record<string, Json> } | undefined;
      const meta = body?.properties?.meta;
      if (!meta || !body?.properties?.data || "$ref" in meta) continue;
      const text = JSON.stringify(meta);
      shared ??= text;
      if (text !== shared) continue;
      schemas.PageMeta ??= meta;
      body.properties.meta = ref("schemas", "PageMeta");
    }
  }
}

const { $schema: _timestampDialect, ...TIMESTAMP } = z.toJSONSchema(Timestamp, { target: "draft-2020-12" }) as Json;
const TIMESTAMP_TEXT = JSON.stringify(Object.entries(TIMESTAMP).sort());

/** Every response timestamp is the same schema: one `Timestamp`, referenced (about 70 copies otherwise). */
function shareTimestamps(node: unknown): void {
  if (!node || typeof node !== "object") return;
  const entries = Array.isArray(node) ? node.entries() : Object.entries(node as Json);
  for (const [key, value] of entries) {
    if (value && typeof value === "object" && JSON.stringify(Object.entries(value).sort()) === TIMESTAMP_TEXT) {
      (node as Record<string | number, unknown>)[key] = ref("schemas", "Timestamp");
    } else shareTimestamps(value);
  }
}

/** Turns every operation's marks into shared components and `$ref`s. */
export function applyContract(doc: { paths?: Record<string, Record<string, Json>>; components?: Json }): void {
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      const marks = operation[EXTENSION] as ContractMarks | undefined;
      delete operation[EXTENSION];
      if (marks) decorate(method.toUpperCase(), path, operation, marks);
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
