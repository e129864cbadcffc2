import swagger from "@fastify/swagger";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { ERROR_STATUS } from "../errors.js";
import type { App } from "../http/types.js";

const ERROR_SCHEMA = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message", "request_id"],
      properties: {
        code: { type: "string", enum: Object.keys(ERROR_STATUS) },
        message: { type: "string", description: "Written for the client's developer." },
        request_id: { type: "string", description: "Equals the Request-Id response header." },
        details: {
          type: "array",
          description: "For validation errors: one entry per problem.",
          items: {
            type: "object",
            required: ["param", "message"],
            properties: { param: { type: "string" }, message: { type: "string" } },
          },
        },
      },
    },
  },
};

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Malformed JSON (bad_request)",
  401: "Missing, malformed, unknown, revoked, expired or other-environment key (unauthorized)",
  403: "The key's scope is too small (forbidden)",
  404: "Unknown record (not_found)",
  409: "Conflict with the current state (conflict, invalid_transition, idempotency_key_in_use)",
  412: "If-Match is not the record's current ETag; nothing changed (precondition_failed)",
  413: "Body over 1 MiB (payload_too_large)",
  415: "Body is not application/json (unsupported_media_type)",
  422: "Invalid input; details name each problem (validation_error, idempotency_key_reused)",
  429: "Rate limit exceeded; see Retry-After (rate_limited)",
  500: "A bug; quote the request id (internal_error)",
  503: "Database unavailable or shutting down (unavailable)",
};

function errorResponse(status: number) {
  return { description: ERROR_DESCRIPTIONS[status] ?? "Error", ...ERROR_SCHEMA };
}

/** operationId from the summary: "List users" → listUsers. */
function operationIdOf(summary: string | undefined, method: string, url: string): string {
  const words = (summary ?? `${method} ${url}`)
    .replace(/[^A-Za-z0-9 ]/g, " ")
    .split(/\s+/)
    .filter(Boolean);
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase())).join("");
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

function transform(input: TransformInput) {
  const out = jsonSchemaTransform(input) as { schema: Record<string, unknown>; url: string };
  const { route } = input as unknown as {
    route: { method: string | string[]; config?: { scope?: string; public?: boolean; ifMatch?: unknown } };
  };
  const source = input.schema as Record<string, unknown> | undefined;
  if (!source || out.schema.hide) return out;
  const method = String(Array.isArray(route.method) ? route.method[0] : route.method);
  const schema = { ...out.schema };
  schema.operationId = operationIdOf(source.summary as string | undefined, method, out.url);
  schema.description ??= source.summary;
  const codes: number[] = [];
  if (!route.config?.public) {
    schema.security = [{ bearerAuth: [] }];
    codes.push(401, 429);
    if (route.config?.scope) codes.push(403);
    if (source.params) codes.push(404);
    if (source.querystring || source.body || source.params) codes.push(422);
    if (source.body) codes.push(400, 413, 415);
    if (method === "POST" || method === "PATCH" || method === "PUT") codes.push(409);
    if (route.config?.ifMatch) codes.push(412);
    codes.push(500, 503);
  } else {
    schema.security = [];
  }
  const response = { ...((schema.response as Record<string, unknown>) ?? {}) };
  for (const code of codes.sort()) response[String(code)] ??= errorResponse(code);
  schema.response = response;
  return { schema, url: out.url };
}

type Operation = {
  requestBody?: { required?: boolean; content?: Record<string, { schema?: { required?: string[] } }> };
};

/**
 * @fastify/swagger marks every request body required, but a body whose fields are all optional may be
 * sent empty (API.md §2: an action with an empty body means `{}`), so the document says so.
 */
function transformObject(input: Parameters<typeof jsonSchemaTransformObject>[0]) {
  const doc = jsonSchemaTransformObject(input) as { paths?: Record<string, Record<string, Operation>> };
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const body = operation.requestBody;
      const schema = body?.content?.["application/json"]?.schema;
      if (body && schema && !("$ref" in schema) && !schema.required?.length) body.required = false;
    }
  }
  return doc as ReturnType<typeof jsonSchemaTransformObject>;
}

export interface OpenApiOptions {
  publicUrl: string | undefined;
  version: string;
}

/** OpenAPI 3.1 generated from the same zod schemas that validate requests (API.md §8). */
export async function registerOpenApi(app: App, options: OpenApiOptions): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Commission Tracking Service API",
        version: options.version,
        description:
          "Deals, comp plans, commissions, SPIFFs, disputes and webhooks. Every /api/v1 request carries `Authorization: Bearer <key>`; 100 requests per rolling minute per key.",
        contact: { name: "Commission Tracking Service", url: "https://github.com/commission-tracking-service" },
        license: { name: "MIT", identifier: "MIT" },
      },
      servers: [{ url: options.publicUrl ?? "http://127.0.0.1:3000", description: "This deployment" }],
      tags: [
        { name: "API keys", description: "Bearer keys, their scopes, rotation and revocation (admin)." },
        { name: "Users", description: "Reps, managers, admins and finance people." },
        { name: "Request logs", description: "Every API request, kept 30 days (admin)." },
        { name: "Audit", description: "The audit trail of every change (admin)." },
        { name: "Jobs", description: "Background work such as wide recalculations." },
        {
          name: "Comp plans",
          description: "Plans with tiers, quotas, caps and versions; who is on which plan when (admin writes).",
        },
        { name: "SPIFFs", description: "Short incentives paid on qualifying deals (admin writes)." },
        { name: "Deals", description: "Closed deals, their splits and the commission lines they earn." },
        { name: "Disputes", description: "Disputes of approved deals and their resolutions." },
        {
          name: "Commissions",
          description: "Commission lines with explanations, previews, statements and CSV export.",
        },
        {
          name: "Webhooks",
          description:
            "Signed (Standard Webhooks) deliveries of events to your https endpoints, with retries and a delivery log (admin).",
        },
        { name: "Health", description: "Liveness and readiness (no key needed)." },
      ],
      components: {
        securitySchemes: {
          bearerAuth: { type: "http", scheme: "bearer", description: "An API key: cts_<environment>_<secret>" },
        },
      },
    },
    transform,
    transformObject,
  });
}

const SCALAR_OPTIONS = {
  routePrefix: "/docs",
  configuration: {
    url: "/api/v1/openapi.json",
    withDefaultFonts: false,
    hideClientButton: true,
    telemetry: false,
  },
};

/** Scalar's plugin in a small app of its own, built on the first request to the docs. */
async function loadDocs(): Promise<FastifyInstance> {
  const { default: scalar } = await import("@scalar/fastify-api-reference");
  const docs = Fastify();
  await docs.register(scalar, SCALAR_OPTIONS as never);
  await docs.ready();
  return docs;
}

/**
 * The docs page (API.md §8): Scalar's three routes (/docs → /docs/, the page, its script). Its module
 * is a 4 MB bundle nothing before listen needs, so the routes are declared here and the plugin is
 * loaded on the first request; its answer (status, type, location, body) is relayed as it is.
 */
export async function registerDocs(app: App): Promise<void> {
  let docs: Promise<FastifyInstance> | undefined;
  const relay = async (req: FastifyRequest, reply: FastifyReply) => {
    docs ??= loadDocs().catch((err) => {
      docs = undefined; // a failed load is retried on the next request
      throw err;
    });
    const res = await (await docs).inject({ method: "GET", url: req.url });
    for (const name of ["content-type", "location"]) {
      const value = res.headers[name];
      if (value !== undefined) reply.header(name, value);
    }
    return reply.code(res.statusCode).send(res.rawPayload);
  };
  for (const url of ["/docs", "/docs/", "/docs/js/scalar.js"]) {
    app.get(url, { config: { public: true }, schema: { hide: true } }, relay);
  }
}

/**
 * The served document: zod registers an input and an output variant of every named schema, so the
 * variants no operation references are dropped (they would only confuse generated clients).
 */
export function openApiDocument(app: App): Record<string, unknown> {
  const doc = structuredClone(app.swagger()) as { components?: { schemas?: Record<string, unknown> } };
  const schemas = doc.components?.schemas;
  if (!schemas) return doc;
  let removed = true;
  while (removed) {
    removed = false;
    const text = JSON.stringify(doc);
    for (const name of Object.keys(schemas)) {
      if (!text.includes(`"#/components/schemas/${name}"`)) {
        delete schemas[name];
        removed = true;
      }
    }
  }
  return doc;
}
