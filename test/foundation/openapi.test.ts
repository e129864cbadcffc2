import type { OpenAPIV3_1 } from "openapi-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../factories.js";
import { bearer, createTestApp, type TestApp } from "../harness.js";

type Operation = OpenAPIV3_1.OperationObject;

let t: TestApp;
let doc: OpenAPIV3_1.Document;
/** Every operation under /api/v1: [METHOD, path, operation]. */
let apiOperations: [string, string, Operation][];

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" });
  expect(res.statusCode).toBe(200);
  doc = res.json();
  apiOperations = Object.entries(doc.paths ?? {})
    .filter(([path]) => path.startsWith("/api/v1/"))
    .flatMap(([path, item]) =>
      Object.entries(item as Record<string, Operation>).map(([method, op]): [string, string, Operation] => [
        method.toUpperCase(),
        path,
        op,
      ]),
    );
});

afterAll(async () => {
  await t?.close();
});

describe("GET /api/v1/openapi.json", () => {
  it("is public (no key needed; a key is accepted) and OpenAPI 3.1.0", async () => {
    const anonymous = await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.title).toBeTruthy();
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);

    const { key } = await createApiKey(t, "read");
    const withKey = await t.app.inject({ method: "GET", url: "/api/v1/openapi.json", headers: bearer(key) });
    expect(withKey.statusCode).toBe(200);
    expect(withKey.json()).toEqual(doc);
  });

  it("declares the bearerAuth security scheme", () => {
    expect(doc.components?.securitySchemes?.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("documents the API routes (and not itself)", () => {
    expect(apiOperations.length).toBeGreaterThanOrEqual(10);
    const names = apiOperations.map(([m, p]) => `${m} ${p}`);
    expect(names).toEqual(
      expect.arrayContaining(["GET /api/v1/users", "POST /api/v1/api-keys/{id}/rotate", "GET /api/v1/request-logs"]),
    );
    expect(Object.keys(doc.paths ?? {})).not.toContain("/api/v1/openapi.json");
  });

  it("every /api/v1 operation needs bearerAuth or cookieAuth and documents 401 and 429 with the error body", () => {
    // Signing in needs neither; the current session's own routes only a session (API.md §11).
    const signIn = new Set([
      "GET /api/v1/auth/methods",
      "POST /api/v1/auth/login",
      "POST /api/v1/auth/invitations/accept",
      "GET /api/v1/auth/oidc/start",
      "GET /api/v1/auth/oidc/callback",
      // A forgotten password (issue #34): asked for and set without a session.
      "POST /api/v1/auth/password-reset",
      "POST /api/v1/auth/password-reset/confirm",
    ]);
    const sessionOnly = new Set([
      "GET /api/v1/auth/session",
      "POST /api/v1/auth/logout",
      "POST /api/v1/auth/password",
      // A person's own notification settings and plan acknowledgements (issue #34).
      "GET /api/v1/me/notifications",
      "POST /api/v1/me/notifications",
      "GET /api/v1/me/plan-acknowledgements",
      "POST /api/v1/plan-acknowledgements/{id}/acknowledge",
    ]);
    for (const [method, path, op] of apiOperations) {
      const where = `${method} ${path}`;
      const expected = signIn.has(where)
        ? []
        : sessionOnly.has(where)
          ? [{ cookieAuth: [] }]
          : [{ bearerAuth: [] }, { cookieAuth: [] }];
      expect(op.security ?? doc.security, where).toEqual(expected);
      // Sign-in routes refuse no key or session (no 401); the OIDC redirect out counts no failures (no 429).
      const errors: Record<string, string[]> = {
        "POST /api/v1/auth/invitations/accept": ["429"],
        "POST /api/v1/auth/password-reset": ["429"],
        "POST /api/v1/auth/password-reset/confirm": ["429"],
        "GET /api/v1/auth/oidc/callback": ["429"],
        "GET /api/v1/auth/oidc/start": [],
        "GET /api/v1/auth/methods": [],
      };
      for (const status of errors[where] ?? ["401", "429"]) {
        const ref = (op.responses?.[status] as OpenAPIV3_1.ReferenceObject | undefined)?.$ref;
        expect(ref, `${where} ${status}`).toMatch(/^#\/components\/responses\//);
        const response = doc.components?.responses?.[ref!.split("/").pop()!] as OpenAPIV3_1.ResponseObject;
        const schema = response.content?.["application/json"]?.schema as OpenAPIV3_1.ReferenceObject;
        expect(schema.$ref, `${where} ${status}`).toBe("#/components/schemas/Error");
      }
    }
  });

  it("every operation has a unique operationId and tags that the document declares", () => {
    const declared = new Set((doc.tags ?? []).map((tag) => tag.name));
    const ids = new Set<string>();
    for (const item of Object.values(doc.paths ?? {})) {
      for (const op of Object.values(item as Record<string, Operation>)) {
        expect(op.operationId).toMatch(/^[a-z][A-Za-z0-9]+$/);
        expect(ids.has(op.operationId!), op.operationId).toBe(false);
        ids.add(op.operationId!);
        expect(op.tags?.length, op.operationId).toBeGreaterThan(0);
        for (const tag of op.tags!) expect(declared.has(tag), `${op.operationId}: tag ${tag}`).toBe(true);
      }
    }
  });

  it("documents 403 wherever a read key is refused, and 404 on every {id} route", async () => {
    const { key } = await createApiKey(t, "read");
    const refused: string[] = [];
    for (const [method, path, op] of apiOperations) {
      const res = await t.app.inject({
        method: method as "GET",
        url: path.replace("{id}", "x"),
        headers: bearer(key),
        ...(method === "GET" ? {} : { payload: {} }),
      });
      if (res.statusCode === 403) {
        refused.push(`${method} ${path}`);
        expect(op.responses?.["403"], `${method} ${path}`).toBeDefined();
      }
      if (path.includes("{id}")) expect(op.responses?.["404"], `${method} ${path}`).toBeDefined();
    }
    // The admin routes are among them.
    expect(refused).toEqual(
      expect.arrayContaining([
        "GET /api/v1/api-keys",
        "POST /api/v1/api-keys",
        "GET /api/v1/api-keys/{id}",
        "POST /api/v1/api-keys/{id}/revoke",
        "POST /api/v1/api-keys/{id}/rotate",
        "GET /api/v1/request-logs",
      ]),
    );
  });

  it("a body that may be empty is optional; one with required fields is required", () => {
    const op = (method: string, path: string) => apiOperations.find(([m, p]) => m === method && p === path)![2];
    const body = (o: Operation) => o.requestBody as OpenAPIV3_1.RequestBodyObject;
    expect(body(op("POST", "/api/v1/api-keys/{id}/revoke")).required).toBe(false);
    expect(body(op("POST", "/api/v1/api-keys/{id}/rotate")).required).toBe(false);
    expect(body(op("PATCH", "/api/v1/users/{id}")).required).toBe(false);
    expect(body(op("POST", "/api/v1/users")).required).toBe(true);
    expect(body(op("POST", "/api/v1/api-keys")).required).toBe(true);
  });

  it("health endpoints need no key", () => {
    for (const path of ["/healthz", "/readyz"]) {
      const op = doc.paths?.[path]?.get as Operation | undefined;
      expect(op?.security, path).toEqual([]);
    }
  });
});

describe("GET /docs", () => {
  it("redirects to /docs/, which serves an HTML page referencing no outside host", async () => {
    const redirect = await t.app.inject({ method: "GET", url: "/docs" });
    expect(redirect.statusCode).toBe(301);
    expect(redirect.headers.location).toBe("/docs/");

    const page = await t.app.inject({ method: "GET", url: redirect.headers.location as string });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    const html = page.body;
    const tags = html.match(/<(script|link)\b[^>]*>/gi) ?? [];
    expect(tags.length).toBeGreaterThan(0);
    const local = "http://localhost:80";
    for (const tag of tags) {
      const url = /\b(?:src|href)\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1];
      if (url === undefined) continue;
      const resolved = new URL(url, `${local}/docs/`);
      // A data: URL is inline (the empty icon): it fetches nothing, from no host.
      if (resolved.protocol === "data:") continue;
      expect(resolved.origin, tag).toBe("http://localhost");
    }
    const urls = html.match(/https?:\/\/[^\s"'<>)]+/g) ?? [];
    expect(urls.filter((u) => !u.startsWith(local))).toEqual([]);
    expect(html).toContain("/api/v1/openapi.json");
  });

  it("serves its script bundle locally", async () => {
    const page = await t.app.inject({ method: "GET", url: "/docs/" });
    const src = /<script\b[^>]*\bsrc\s*=\s*["']([^"']+)["']/i.exec(page.body)?.[1];
    expect(src).toBeDefined();
    const bundle = await t.app.inject({ method: "GET", url: new URL(src!, "http://localhost/docs/").pathname });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers["content-type"]).toMatch(/javascript/);
  });
});
