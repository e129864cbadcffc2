import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { OpenAPIV3_1 } from "openapi-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ErrorBody } from "../../src/errors.js";
import { createTestApp, type TestApp } from "../harness.js";

type Operation = OpenAPIV3_1.OperationObject;
type Json = Record<string, unknown>;

let t: TestApp;
let body: string;
let doc: OpenAPIV3_1.Document;
/** Every operation: [METHOD, path, operation]. */
let operations: [string, string, Operation][];

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" });
  expect(res.statusCode).toBe(200);
  body = res.body;
  doc = res.json();
  operations = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, op]): [string, string, Operation] => [
      method.toUpperCase(),
      path,
      op,
    ]),
  );
});
afterAll(async () => t?.close());

const isApi = (path: string) => path.startsWith("/api/v1/");
/** Public operations (sign-in) take no key: no per-key limit headers, no Idempotency-Key (nothing to store it under). */
const isPublic = (op: Operation) => Array.isArray(op.security) && op.security.length === 0;
const refOf = (value: unknown) => (value as { $ref?: string } | undefined)?.$ref;
const paramRefs = (op: Operation) => (op.parameters ?? []).map(refOf).filter(Boolean);

/** Every subschema of the document with the property name that holds it. */
function* properties(node: unknown): Generator<[string, Json]> {
  if (Array.isArray(node)) for (const item of node) yield* properties(item);
  else if (node && typeof node === "object") {
    const props = (node as Json).properties as Record<string, Json> | undefined;
    if (props && typeof props === "object") for (const [name, schema] of Object.entries(props)) yield [name, schema];
    for (const value of Object.values(node)) yield* properties(value);
  }
}

describe("#13.31 one Error schema, shared error responses", () => {
  it("the document is at most 350 KB and holds the error body once", () => {
    // Was 155 KB; the invitation and password routes of #15 added about 5 KB, the plan-change impact of #16 about 5 KB,
    // the console's GET /auth/methods of #17 about 1 KB, a deal's history (#17) about 1.5 KB, a plan's versions
    // (#18) about 2 KB, GET /jobs (#18) about 1.8 KB, GET /payouts (#18) about 1.5 KB, the
    // approval queue's GET /deals filters (#18) about 1.5 KB. #26 (177 KB before): what every operation may
    // answer (400, 405, 408, 422, 431, 500, 413/415; one $ref each) about 17 KB, the webhooks and their event
    // schemas about 11 KB, the two CSV operations about 5 KB, the OIDC browser redirects taken out -3 KB; an
    // example on every operation and webhook (84 values in components.examples, each once, $ref'd) about 46 KB;
    // the write responses' ETag and Location and GET /plan-assignments/{id} about 2.7 KB; §20 (b)'s
    // total_commission_scope, a dispute's amount_scope and scope_user_id and a deal's people, the fields
    // that need admin (x-requires), and their examples about 2.5 KB. #28: GET /users/statements (a team's
    // statement numbers in one request), StatementPlan and their examples: 266.7 KB with them; then a line's deal
    // (StatementLine, LineDeal), a plan's cap in a statement, GET /users/{id}/periods, `on` and `deal_columns`
    // with their examples about 8 KB; GET /plan-assignments (an admin's checklist counts every plan's
    // assignments in one request) and /auth/methods' needs_first_admin about 2.4 KB. §13's payout runs (six
    // operations, the run, payee, total and run-line schemas, the export's formats, a line's currency and run, a
    // user's payroll_id, the payout_run events and their examples): about 33 KB, 311.8 KB with them.
    // assignments in one request) and /auth/methods' needs_first_admin about 2.4 KB. §14 (cancellations, refunds,
    // clawbacks): five operations (cancel, refunds POST/GET, GET /refunds/{id}, clawback-preview) about 12 KB,
    // their schemas (DealCancelled repeats DealDetail, ClawbackExplanation, Refund, the plan's policy) about 9 KB,
    // the deal's six new fields in every deal schema and body about 5 KB, their examples about 8 KB.
    // §13 and §14 together, with their examples (a run line is a statement line, with its deal): 349.3 KB.
    // §19's imports: two operations (a text/csv body each) about 6 KB, the Imports tag's rules 1.2 KB, the
    // result and row schemas and the error details' row and field 2 KB, their examples 1.5 KB: 359.6 KB.
    // §16 (reporting lines, override plans and lines): three reporting-line operations and the impact (about 6.8 KB
    // with their examples), a plan's kind and levels in every plan schema, body and example (about 3 KB), and the
    // OverrideExplanation in every line union — Commission, PreviewLine and the impact line's before and after — with
    // a ReportingImpact example (about 12 KB): 382.3 KB. §15: the four exchange-rate operations with their
    // schemas and examples (about 10.5 KB) and fx_max_age_days in the plan and SPIFF schemas: 395.1 KB; a deal's
    // fx_missing (the FxMissingPair schema, the field, the list filter, 1.5 KB); §15's "nothing sums across
    // currencies": a deal's commission_totals and total_commission_currency in every deal schema, a statement's
    // currency and totals_by_currency, an adjustment's currency, examples (about 6 KB), the FxExplanation of plan
    // and SPIFF lines and a preview line's currency: 403.0 KB. §18 draws: five operations, the Draw, DrawPeriod,
    // DrawEntry and DrawExplanation schemas, two webhook events, a line's draw_id and nullable deal_id, examples
    // (the D1 draw after April), the payout-run operations naming the draw settlement (about 27.3 KB, most of it the
    // draw explanation in every line union): 430.8 KB; the Draws tag's description: 431.2 KB. §17 accounting: five
    // operations (the settings' GET and PUT, schedule, roll-forward, journal with its CSV), their schemas, the
    // settings event, examples (A2's 36-month schedule is 4.6 KB of them): 459.1 KB. #34: email notifications
    // (settings, the delivery log, password reset) and plan acknowledgements, ten operations with their schemas
    // and examples (the plan document example about 1 KB) and their two tags, the two password-reset routes' 404, 409, 429 and 503: +25.5 KB.
    // #34's weekly_digest kind (in the kind enums, the settings body's description and example): +0.1 KB.
    // #35: the impact's inline-or-job size said as an active plan's lines: +0.1 KB.
    expect(body.length).toBeLessThanOrEqual(485_000);
    expect(body.match(/Equals the Request-Id response header/g)).toHaveLength(1);
  });

  it("components.schemas.Error is generated from errors.ts's ErrorBody", () => {
    const { $schema: _, ...expected } = z.toJSONSchema(ErrorBody, { target: "draft-2020-12" }) as Json;
    expect(doc.components?.schemas?.Error).toEqual(expected);
  });

  it("every 4xx and 5xx response is a $ref to a shared response whose body is the Error schema", () => {
    for (const [method, path, op] of operations) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (Number(status) < 400) continue;
        const ref = refOf(response);
        expect(ref, `${method} ${path} ${status}`).toMatch(/^#\/components\/responses\/[A-Z][A-Za-z]+$/);
        const shared = doc.components?.responses?.[ref!.split("/").pop()!] as OpenAPIV3_1.ResponseObject;
        expect(shared.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/Error" });
      }
    }
  });
});

describe("#13.33 operationIds read well in a generated SDK", () => {
  it("every operationId is lowerCamelCase words and unique", () => {
    const ids = operations.map(([, , op]) => op.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z]+([A-Z][a-z]+)*$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("names a few as an SDK user would guess them", () => {
    const idOf = (method: string, path: string) =>
      operations.find(([m, p]) => m === method && p === path)?.[2].operationId;
    expect({
      createUser: idOf("POST", "/api/v1/users"),
      getUserStatement: idOf("GET", "/api/v1/users/{id}/statement"),
      previewCommission: idOf("POST", "/api/v1/commissions/preview"),
      listDeals: idOf("GET", "/api/v1/deals"),
      approveDeal: idOf("POST", "/api/v1/deals/{id}/approve"),
      createApiKey: idOf("POST", "/api/v1/api-keys"),
      markDealPaid: idOf("POST", "/api/v1/deals/{id}/mark-paid"),
      upsertDealByExternalId: idOf("PUT", "/api/v1/deals/by-external-id/{external_id}"),
      listCommissions: idOf("GET", "/api/v1/commissions"),
      getJob: idOf("GET", "/api/v1/jobs/{id}"),
      getReadiness: idOf("GET", "/readyz"),
    }).toEqual({
      createUser: "createUser",
      getUserStatement: "getUserStatement",
      previewCommission: "previewCommission",
      listDeals: "listDeals",
      approveDeal: "approveDeal",
      createApiKey: "createApiKey",
      markDealPaid: "markDealPaid",
      upsertDealByExternalId: "upsertDealByExternalId",
      listCommissions: "listCommissions",
      getJob: "getJob",
      getReadiness: "getReadiness",
    });
  });
});

describe("#13.30 the document declares what the contract promises", () => {
  it("every GET takes If-None-Match and documents 304; every 200 of a GET carries an ETag", () => {
    const redirects = new Set(["/api/v1/auth/oidc/start", "/api/v1/auth/oidc/callback"]);
    for (const [method, path, op] of operations.filter(([m, p]) => m === "GET" && !redirects.has(p))) {
      expect(paramRefs(op), `${method} ${path}`).toContain("#/components/parameters/IfNoneMatch");
      expect(refOf(op.responses?.["304"]), `${method} ${path}`).toBe("#/components/responses/NotModified");
      const ok = op.responses?.["200"] as OpenAPIV3_1.ResponseObject;
      expect(refOf(ok.headers?.ETag), `${method} ${path}`).toBe("#/components/headers/ETag");
    }
  });

  it("every API write takes Idempotency-Key; PATCH and PUT take If-Match and document 412", () => {
    for (const [method, path, op] of operations.filter(
      ([m, p, op]) => m !== "GET" && m !== "DELETE" && isApi(p) && !isPublic(op),
    )) {
      expect(paramRefs(op), `${method} ${path}`).toContain("#/components/parameters/IdempotencyKey");
      const conditional = method === "PATCH" || method === "PUT";
      expect(paramRefs(op).includes("#/components/parameters/IfMatch"), `${method} ${path}`).toBe(conditional);
      expect(refOf(op.responses?.["412"]), `${method} ${path}`).toBe(
        conditional ? "#/components/responses/PreconditionFailed" : undefined,
      );
    }
  });

  it("every success response names Request-Id; API ones the RateLimit headers; GET lists Link", () => {
    for (const [method, path, op] of operations) {
      // #26: a POST that pages its answer (the plan-change impact) sends no Link: a link is followed with GET.
      const isList =
        method === "GET" &&
        (op.parameters ?? []).some(
          (p) => (p as OpenAPIV3_1.ParameterObject).name === "page" || refOf(p) === "#/components/parameters/Page",
        );
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (!status.startsWith("2")) continue;
        const headers = Object.keys((response as OpenAPIV3_1.ResponseObject).headers ?? {});
        const where = `${method} ${path} ${status}`;
        expect(headers, where).toContain("Request-Id");
        if (isApi(path) && !isPublic(op))
          expect(headers, where).toEqual(expect.arrayContaining(["RateLimit-Policy", "RateLimit"]));
        expect(headers.includes("Link"), where).toBe(isList);
      }
    }
  });

  it("#26 every operation declares 400, 405, 408, 422, 431 and 500; a body's method 413 and 415", () => {
    for (const [method, path, op] of operations) {
      const statuses = Object.keys(op.responses ?? {});
      const expected = ["400", "405", "408", "422", "431", "500"];
      if (method !== "GET") expected.push("413", "415");
      expect(statuses, `${method} ${path}`).toEqual(expect.arrayContaining(expected));
    }
    const allow = doc.components?.responses?.MethodNotAllowed as OpenAPIV3_1.ResponseObject;
    expect(refOf(allow.headers?.Allow)).toBe("#/components/headers/Allow");
  });

  it("#26 the RateLimit headers' examples are what the service sends; writes declare Idempotent-Replayed", async () => {
    const { key } = await t.key("read");
    const res = await t.app.inject({
      method: "GET",
      url: "/api/v1/users",
      headers: { authorization: `Bearer ${key}` },
    });
    const headers = doc.components?.headers as Record<string, { schema: { examples: string[] } }>;
    const shape = (value: string) => value.replace(/\d+/g, "N");
    expect(shape(headers.RateLimitPolicy!.schema.examples[0]!)).toBe(shape(res.headers["ratelimit-policy"] as string));
    expect(shape(headers.RateLimit!.schema.examples[0]!)).toBe(shape(res.headers.ratelimit as string));
    for (const [method, path, op] of operations.filter(
      ([m, p, o]) => m !== "GET" && m !== "DELETE" && isApi(p) && !isPublic(o),
    )) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (!status.startsWith("2")) continue;
        const headers = (response as OpenAPIV3_1.ResponseObject).headers ?? {};
        expect(refOf(headers["Idempotent-Replayed"]), `${method} ${path} ${status}`).toBe(
          "#/components/headers/IdempotentReplayed",
        );
      }
    }
  });

  it("#26 the status, kind, role and deal_type filters are enums (lists: an array of the enum, comma-separated)", () => {
    const filters: string[] = [];
    for (const [method, path, op] of operations) {
      for (const param of (op.parameters ?? []) as OpenAPIV3_1.ParameterObject[]) {
        if (!/^(status|kind|role|deal_type)$/.test(param.name ?? "") || param.in !== "query") continue;
        if (path === "/api/v1/jobs" && param.name === "kind") continue; // job kinds are open-ended (any handler)
        if (path === "/api/v1/request-logs") continue; // status: an HTTP status, an integer
        const schema = param.schema as OpenAPIV3_1.SchemaObject;
        const values = schema.type === "array" ? (schema.items as OpenAPIV3_1.SchemaObject).enum : schema.enum;
        expect(values?.length, `${method} ${path} ${param.name}`).toBeGreaterThan(1);
        if (schema.type === "array") expect([param.style, param.explode]).toEqual(["form", false]);
        filters.push(`${path} ${param.name}`);
      }
    }
    expect(filters).toEqual(
      expect.arrayContaining([
        "/api/v1/deals status",
        "/api/v1/deals deal_type",
        "/api/v1/commissions kind",
        "/api/v1/commissions status",
        "/api/v1/disputes status",
      ]),
    );
  });

  it("429 and 503 carry Retry-After; every error response carries Request-Id", () => {
    for (const [name, response] of Object.entries(doc.components?.responses ?? {})) {
      if (name.startsWith("Webhook")) continue; // what a subscriber answers a delivery, not this service
      const headers = Object.keys((response as OpenAPIV3_1.ResponseObject).headers ?? {});
      expect(headers, name).toContain("Request-Id");
      if (name === "RateLimited" || name === "Unavailable") expect(headers, name).toContain("Retry-After");
    }
  });

  it("the statuses the services raise: 409 on DELETE /deals/{id}, 503 on /readyz", () => {
    const op = (method: string, path: string) => operations.find(([m, p]) => m === method && p === path)![2];
    expect(refOf(op("DELETE", "/api/v1/deals/{id}").responses?.["409"])).toBe("#/components/responses/Conflict");
    expect(refOf(op("GET", "/readyz").responses?.["503"])).toBe("#/components/responses/Unavailable");
  });

  it("#26 CSV is its own operation, whose one 200 is text/csv with Content-Disposition; the JSON ones say JSON", () => {
    for (const path of ["/api/v1/commissions", "/api/v1/users/{id}/statement"]) {
      const json = (doc.paths?.[path]?.get?.responses?.["200"] ?? {}) as OpenAPIV3_1.ResponseObject;
      expect(Object.keys(json.content ?? {}), path).toEqual(["application/json"]);
      expect(doc.paths?.[path]?.get?.description, path).toContain(`${path.replace("/api/v1", "")}.csv`);
      const csv = (doc.paths?.[`${path}.csv`]?.get?.responses?.["200"] ?? {}) as OpenAPIV3_1.ResponseObject;
      expect(Object.keys(csv.content ?? {}), `${path}.csv`).toEqual(["text/csv"]);
      expect(csv.content?.["text/csv"]?.schema).toMatchObject({ type: "string" });
      expect(refOf(csv.headers?.["Content-Disposition"])).toBe("#/components/headers/ContentDisposition");
    }
  });

  it("dates are format: date, timestamps format: date-time", () => {
    const wrong: string[] = [];
    for (const [name, schema] of properties(doc)) {
      const want = /_at$|^since$|^updated_since$|^timestamp$/.test(name)
        ? "date-time"
        : /_date$|^close_date_(from|to)$|_on$|^effective_(from|to)$/.test(name)
          ? "date"
          : undefined;
      if (!want) continue;
      // The shared Timestamp schema counts as its own text.
      const types = JSON.stringify(schema).replaceAll(
        '{"$ref":"#/components/schemas/Timestamp"}',
        JSON.stringify(doc.components?.schemas?.Timestamp),
      );
      if (!types.includes(`"format":"${want}"`)) wrong.push(`${name}: ${types.slice(0, 80)}`);
    }
    for (const [, , op] of operations) {
      for (const param of (op.parameters ?? []) as OpenAPIV3_1.ParameterObject[]) {
        if (/^(since|updated_since|close_date_from|close_date_to)$/.test(param.name ?? "")) {
          const want = param.name!.startsWith("close_date") ? "date" : "date-time";
          if ((param.schema as Json)?.format !== want) wrong.push(`query ${param.name}`);
        }
      }
    }
    expect([...new Set(wrong)]).toEqual([]);
  });

  it("no integer carries zod's ±2^53 bounds, and every default and example is valid for its schema", () => {
    expect(body).not.toContain("9007199254740991");
    const ajv = new Ajv2020({ strict: false, validateFormats: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
    const problems: string[] = [];
    const check = (where: string, schema: Json, value: unknown) => {
      const resolved = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
      if (!ajv.validate(resolved, value)) problems.push(`${where}: ${JSON.stringify(value)} ${ajv.errorsText()}`);
    };
    for (const [method, path, op] of operations) {
      for (const param of (op.parameters ?? []) as OpenAPIV3_1.ParameterObject[]) {
        const schema = param.schema as Json | undefined;
        if (!schema) continue;
        for (const key of ["default", "example"] as const) {
          if (schema[key] !== undefined) check(`${method} ${path} ${param.name}.${key}`, schema, schema[key]);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe("#13.8 servers is the public origin", () => {
  it("without CTS_PUBLIC_URL: the listen address, whatever Host the request names (API.md §20 (d))", async () => {
    for (const host of ["cts.internal:8443", "127.0.0.1:4000"]) {
      const res = await t.app.inject({ method: "GET", url: "/api/v1/openapi.json", headers: { host } });
      expect(res.json().servers).toEqual([{ url: "http://127.0.0.1:3000", description: "This deployment" }]);
    }
  });
});
