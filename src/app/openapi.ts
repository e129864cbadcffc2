import swagger from "@fastify/swagger";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import type { App } from "../http/types.js";
import { IMPORTS_TAG } from "../imports/index.js";
import { applyContract, type ContractMarks, EXTENSION, errorStatuses } from "./openapi-contract.js";
import { attachExamples } from "./openapi-examples/index.js";
import { webhooksSection } from "./openapi-webhooks.js";

/** operationId from the summary: "Get a user's statement" → getUserStatement (articles and 's dropped). */
function operationIdOf(summary: string | undefined, method: string, url: string): string {
  const words = (summary ?? `${method} ${url}`)
    .replace(/'s\b/g, "")
    .replace(/[^A-Za-z ]/g, " ")
    .split(/\s+/)
    .filter((w) => w && !/^(a|an|the)$/i.test(w));
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase())).join("");
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

function transform(input: TransformInput) {
  const out = jsonSchemaTransform(input) as { schema: Record<string, unknown>; url: string };
  const { route } = input as unknown as {
    route: {
      method: string | string[];
      config?: { scope?: string; public?: boolean; sessionOnly?: boolean; ifMatch?: unknown; represents?: unknown };
    };
  };
  const source = input.schema as Record<string, unknown> | undefined;
  if (!source || out.schema.hide) return out;
  const method = String(Array.isArray(route.method) ? route.method[0] : route.method);
  const schema = { ...out.schema };
  schema.operationId =
    (source.operationId as string | undefined) ?? operationIdOf(source.summary as string, method, out.url);
  schema.description ??= source.summary;
  // Every operation takes a key or a session (the document's top-level security) but the public ones,
  // and the few that only a signed-in person's session can call.
  if (route.config?.public) schema.security = [];
  else if (route.config?.sessionOnly) schema.security = [{ cookieAuth: [] }];
  const marks: ContractMarks = {
    errors: errorStatuses(method, out.url, route.config ?? {}, source),
    public: route.config?.public === true,
    record: route.config?.represents !== undefined,
  };
  schema[EXTENSION] = marks;
  return { schema, url: out.url };
}

type BodySchema = { required?: string[]; $ref?: string };
type Operation = {
  requestBody?: { required?: boolean; content?: Record<string, { schema?: BodySchema }> };
};

/**
 * @fastify/swagger marks every request body required, but a body whose fields are all optional may be
 * sent empty (API.md §2: an action with an empty body means `{}`), so the document says so.
 */
function transformObject(input: Parameters<typeof jsonSchemaTransformObject>[0]) {
  const doc = jsonSchemaTransformObject(input) as {
    paths?: Record<string, Record<string, Operation>>;
    components?: { schemas?: Record<string, BodySchema> };
  };
  // A body shared by several operations (UpdateCompPlan) is a $ref to its component.
  const resolve = (schema: BodySchema | undefined) =>
    schema?.$ref ? doc.components?.schemas?.[schema.$ref.split("/").pop()!] : schema;
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const body = operation.requestBody;
      const schema = resolve(body?.content?.["application/json"]?.schema);
      if (body && schema && !schema.required?.length) body.required = false;
    }
  }
  applyContract(doc as Parameters<typeof applyContract>[0]);
  const { webhooks, parameters, responses } = webhooksSection();
  const components = doc.components as Record<string, Record<string, unknown> | undefined>;
  components.parameters = { ...components.parameters, ...parameters };
  components.responses = { ...components.responses, ...responses };
  const whole = { ...doc, webhooks };
  components.examples = attachExamples(whole as Parameters<typeof attachExamples>[0]);
  return whole as ReturnType<typeof jsonSchemaTransformObject>;
}

export interface OpenApiOptions {
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
          "Deals, comp plans, commissions, SPIFFs, disputes and webhooks. Every /api/v1 request carries `Authorization: Bearer <key>` (100 requests per rolling minute per key) or, from the web console, a signed-in person's `cts_session` cookie (300 per minute per person; see cookieAuth for its CSRF header).",
        contact: { name: "Commission Tracking Service", url: "https://github.com/commission-tracking-service" },
        license: { name: "MIT", identifier: "MIT" },
      },
      tags: [
        { name: "API keys", description: "Bearer keys, their scopes, rotation and revocation (admin)." },
        { name: "Users", description: "Reps, managers, admins and finance people." },
        {
          name: "Sign-in",
          description:
            "People sign in to the web console (password, invitation, OpenID Connect) and out. OpenID Connect is a browser redirect, not an API call, so it is not listed as an operation: send the browser to `GET /api/v1/auth/oidc/start?return_to=/path` (302 to the provider; it comes back to `/api/v1/auth/oidc/callback`, which signs the person in and redirects to `return_to`).",
        },
        { name: "Request logs", description: "Every API request, kept 30 days (admin)." },
        { name: "Audit", description: "The audit trail of every change (admin)." },
        { name: "Jobs", description: "Background work such as wide recalculations." },
        {
          name: "Comp plans",
          description: "Plans with tiers, quotas, caps and versions; who is on which plan when (admin writes).",
        },
        { name: "SPIFFs", description: "Short incentives paid on qualifying deals (admin writes)." },
        {
          name: "Exchange rates",
          description: "Dated rates by base that convert deals into a plan's currency (admin writes).",
        },
        { name: "Deals", description: "Closed deals, their splits and the commission lines they earn." },
        { name: "Disputes", description: "Disputes of approved deals and their resolutions." },
        {
          name: "Commissions",
          description: "Commission lines with explanations, previews, statements and CSV export.",
        },
        {
          name: "Payout runs",
          description:
            "What to pay through a date, netted per person and currency, paid on finalize; exports for payroll (finance and admin).",
        },
        {
          name: "Draws",
          description:
            "Guaranteed minimums per month or quarter, recoverable or not, settled in payout runs (API.md §18).",
        },
        {
          name: "Accounting",
          description:
            "Commission-cost accounting under ASC 340-40 (API.md §17): settings, each capitalized line's schedule, the roll-forward and the month's journal (finance and admin).",
        },
        {
          name: "Notifications",
          description:
            "Email (CTS_SMTP_URL): each person's kinds on or off, and the delivery log (admin). docs/notifications.md.",
        },
        {
          name: "Plan acknowledgements",
          description:
            "A person assigned a plan (or a new version) reads its terms and acknowledges them; admins and finance see who has not. Never gates pay.",
        },
        {
          name: "Webhooks",
          description:
            "Signed (Standard Webhooks) deliveries of events to your https endpoints, with retries and a delivery log (admin). The document's `webhooks` describe each event's POST to a subscriber: sent to every active subscription to its type (or to `*`), at least once, so deduplicate by `webhook-id`.",
        },
        IMPORTS_TAG,
        { name: "Health", description: "Liveness and readiness (no key needed)." },
      ],
      security: [{ bearerAuth: [] }, { cookieAuth: [] }],
      components: {
        securitySchemes: {
          bearerAuth: { type: "http", scheme: "bearer", description: "An API key: cts_<environment>_<secret>" },
          cookieAuth: {
            type: "apiKey",
            in: "cookie",
            name: "cts_session",
            description:
              "A signed-in person's session (POST /auth/login), for the web console; ignored when an Authorization header is sent. With it, every POST, PUT, PATCH and DELETE also needs `X-CSRF-Token: <csrf_token of the session>`, and an `Origin` header, if sent, equal to the service's origin: else 403 forbidden \"CSRF check failed\".",
          },
        },
      },
    },
    transform,
    transformObject,
  });
}

/**
 * The served document: zod registers an input and an output variant of every named schema, so the
 * variants no operation references are dropped (they would only confuse generated clients).
 */
export function openApiDocument(app: App): Record<string, unknown> {
  type Doc = { components?: { schemas?: Record<string, unknown> } };
  const built = app.swagger() as Doc;
  const names = Object.keys(built.components?.schemas ?? {});
  // An input variant equal to its output (an enum, say) is the same shape: one schema, one name.
  let text = JSON.stringify(built);
  for (const name of names.filter((n) => n.endsWith("Input"))) {
    const output = name.slice(0, -"Input".length);
    const same =
      JSON.stringify(built.components?.schemas?.[name]) === JSON.stringify(built.components?.schemas?.[output]);
    if (same) text = text.replaceAll(`"#/components/schemas/${name}"`, `"#/components/schemas/${output}"`);
  }
  const doc = JSON.parse(text) as Doc;
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

/** The document with its `servers` entry: the service's origin (CTS_PUBLIC_URL, else the listen address). */
export function documentFor(doc: Record<string, unknown>, origin: string): Record<string, unknown> {
  return { ...doc, servers: [{ url: origin, description: "This deployment" }] };
}
