import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { etagOf } from "../../src/http/etag.js";
import { createApiKey, createUser } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, dealBody } from "../factories-commissions.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";
import { callRow, operations } from "../route-case.js";
import { prepareRoutes, ROUTES } from "../route-rows.js";

/**
 * API.md §20 (e): JSON, CSV and the OpenAPI document over 1 KiB go out as br (else gzip) when accepted,
 * with `Vary: Accept-Encoding`; a compressed body's ETag ends `-br`/`-gzip`, and If-None-Match and
 * If-Match accept every variant. Every GET of the served document is called (the security table's rows
 * give records and queries), with JSON and, where the document offers it, CSV.
 */
const t: TestApp = await createTestApp({ clock: new TestClock() });
let admin: string;

const DECODE = { br: brotliDecompressSync, gzip: gunzipSync } as const;
type Encoding = keyof typeof DECODE;
/**
 * Lists that move while they are read: the request log grows with every request, and the caller's own key
 * shows its `last_used_at`, written after its requests (once a minute). Two reads need not hold the same bytes.
 */
const CHANGING = new Set(["/api/v1/request-logs", "/api/v1/api-keys"]);

interface Call {
  name: string;
  url: string;
  accept?: string;
}

const doc = (await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json() as {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
};

beforeAll(async () => {
  admin = (await createApiKey(t, "admin")).key;
  await prepareRoutes(t);
  // Enough records that lists, statements and the CSV run well past 1 KiB.
  const api = new Api(t);
  const plan = await createPlan(api, { tiers: null, quota: null, base_rate: 0.1 });
  for (let i = 0; i < 4; i++) {
    const user = await createUser(t);
    await assign(api, plan.id, user.id);
    for (let d = 0; d < 3; d++) await approveAsOwner(t, (await createDeal(api, user.id)).id);
  }
});

afterAll(async () => {
  await t.close();
});

/** Every GET of the document a key may call, as its row calls it, with 100 items a page; CSV where offered. */
async function calls(): Promise<Call[]> {
  const out: Call[] = [{ name: "GET /api/v1/openapi.json", url: "/api/v1/openapi.json" }];
  for (const op of (await operations(t)).filter((o) => o.method === "GET" && o.access === "key")) {
    const row = ROUTES.find((r) => r.method === "GET" && r.path === op.path)!;
    const id = row.record ? await row.record(t) : undefined;
    const path = op.path.replace(/\{\w+\}/, id ?? "");
    const query = [row.query, op.queryParams.includes("per_page") ? "per_page=100" : undefined].filter(Boolean);
    const url = query.length ? `${path}?${query.join("&")}` : path;
    const content = doc.paths[op.path]!.get!.responses["200"]!.content!;
    if (content["application/json"]) out.push({ name: `GET ${op.path}`, url });
    if (content["text/csv"]) out.push({ name: `GET ${op.path} (CSV)`, url, accept: "text/csv" });
  }
  return out;
}

const send = (call: Call, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: "GET",
    url: call.url,
    headers: { ...bearer(admin), ...(call.accept && { accept: call.accept }), ...headers },
  });

const varyOf = (res: LightMyRequestResponse) => String(res.headers.vary).split(", ");

describe("every GET of the route table, JSON and CSV", () => {
  it("over 1 KiB: br or gzip as accepted, decoding to the same bytes, its ETag marked; every variant → 304", async () => {
    const compressed: string[] = [];
    for (const call of await calls()) {
      t.clock!.advance(61_000); // a fresh rate-limit window for this call's requests
      const plain = await send(call);
      expect(plain.statusCode, `${call.name}: ${plain.body}`).toBe(200);
      expect(plain.headers["content-encoding"], call.name).toBeUndefined();
      expect(varyOf(plain), call.name).toContain("Accept-Encoding");
      const etag = plain.headers.etag as string;
      const big = plain.rawPayload.length > 1024;
      for (const encoding of ["br", "gzip"] as Encoding[]) {
        const res = await send(call, { "accept-encoding": encoding === "br" ? "gzip, deflate, br" : "gzip" });
        expect(res.statusCode, call.name).toBe(200);
        expect(varyOf(res), call.name).toContain("Accept-Encoding");
        if (!big) {
          expect([res.headers["content-encoding"], res.headers.etag], call.name).toEqual([undefined, etag]);
          continue;
        }
        expect(res.headers["content-encoding"], call.name).toBe(encoding);
        expect(res.rawPayload.length, call.name).toBeLessThan(plain.rawPayload.length);
        const decoded = DECODE[encoding](res.rawPayload);
        if (CHANGING.has(call.url.split("?")[0]!)) {
          // Its bytes moved on; its tag is still the decoded body's, marked.
          expect(res.headers.etag, call.name).toBe(`${etagOf(decoded).slice(0, -1)}-${encoding}"`);
          continue;
        }
        expect(decoded.equals(plain.rawPayload), call.name).toBe(true);
        expect(res.headers.etag, call.name).toBe(`${etag.slice(0, -1)}-${encoding}"`);
        for (const variant of [etag, `${etag.slice(0, -1)}-br"`, `${etag.slice(0, -1)}-gzip"`]) {
          const again = await send(call, { "accept-encoding": encoding, "if-none-match": variant });
          expect([again.statusCode, again.body], `${call.name} If-None-Match ${variant}`).toEqual([304, ""]);
        }
      }
      if (big) compressed.push(call.name);
    }
    // With this data the lists, the CSV and the document run past 1 KiB (a single record stays below).
    expect(compressed).toEqual(
      expect.arrayContaining([
        "GET /api/v1/openapi.json",
        "GET /api/v1/audit-events",
        "GET /api/v1/commissions",
        "GET /api/v1/commissions.csv (CSV)",
        "GET /api/v1/deals",
        "GET /api/v1/request-logs",
        "GET /api/v1/users",
      ]),
    );
  });

  it("a small body stays as it is", async () => {
    const res = await t.app.inject({ method: "GET", url: "/healthz", headers: { "accept-encoding": "br" } });
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body).toBe('{"status":"ok"}');
  });

  it("the encodings asked for decide: br preferred, gzip when br is refused, none for identity", async () => {
    const url = "/api/v1/openapi.json";
    const encodingFor = async (accept: string) =>
      (await t.app.inject({ method: "GET", url, headers: { "accept-encoding": accept } })).headers["content-encoding"];
    expect(await encodingFor("gzip, br")).toBe("br");
    expect(await encodingFor("br;q=0, gzip")).toBe("gzip");
    expect(await encodingFor("deflate")).toBeUndefined();
    expect(await encodingFor("identity")).toBeUndefined();
  });
});

describe("writes and If-Match with a compressed ETag", () => {
  it("a 201 is compressed with its ETag marked; the -gzip variant of a GET's ETag passes If-Match; a stale one → 412", async () => {
    t.clock!.advance(61_000);
    // Four credited users on a plan: four explained lines take the deal past 1 KiB.
    const api = new Api(t);
    const plan = await createPlan(api, { tiers: null, quota: null, base_rate: 0.1 });
    const users = [];
    for (let i = 0; i < 4; i++) {
      users.push(await createUser(t));
      await assign(api, plan.id, users[i]!.id);
    }
    const splits = users.map((u) => ({ user_id: u.id, percent: 25 }));
    const created = await t.app.inject({
      method: "POST",
      url: "/api/v1/deals",
      headers: { ...bearer(admin), "accept-encoding": "br" },
      payload: dealBody(users[0]!.id, { splits }),
    });
    expect(created.statusCode).toBe(201);
    expect(created.headers["content-encoding"]).toBe("br");
    const id = JSON.parse(brotliDecompressSync(created.rawPayload).toString()).id as string;
    const read = await t.app.inject({
      method: "GET",
      url: `/api/v1/deals/${id}`,
      headers: { ...bearer(admin), "accept-encoding": "gzip" },
    });
    expect(read.headers["content-encoding"]).toBe("gzip");
    const tag = read.headers.etag as string;
    expect(tag).toMatch(/-gzip"$/);
    expect(created.headers.etag).toBe(tag.replace(/-gzip"$/, '-br"'));

    const patch = (ifMatch: string, arr_amount: number) =>
      t.app.inject({
        method: "PATCH",
        url: `/api/v1/deals/${id}`,
        headers: { ...bearer(admin), "if-match": ifMatch },
        payload: { arr_amount },
      });
    const updated = await patch(tag, 20_000);
    expect(updated.statusCode, updated.body).toBe(200);
    const stale = await patch(tag, 30_000);
    expect(stale.statusCode).toBe(412);
  });
});

describe("the CSV export streams compressed", () => {
  it("GET /commissions as CSV: the whole file in br, its ETag the export's, marked", async () => {
    t.clock!.advance(61_000);
    const row = ROUTES.find((r) => r.method === "GET" && r.path === "/api/v1/commissions")!;
    const plain = await callRow(t, row, { key: admin, headers: { accept: "text/csv" } });
    const br = await callRow(t, row, { key: admin, headers: { accept: "text/csv", "accept-encoding": "br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(br.headers.etag).toBe(`${(plain.headers.etag as string).slice(0, -1)}-br"`);
    expect(br.headers.vary).toBe("Accept, Accept-Encoding");
  });
});
