import type { AddressInfo } from "node:net";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../factories.js";
import { Api, approveAsOwner, createDeal, dealBody, ok } from "../factories-commissions.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";
import { callRow, type Operation, operations } from "../route-case.js";
import { prepareRoutes, ROUTES } from "../route-rows.js";
import { signedInAs } from "../sessions.js";

/**
 * API.md §20 (e): a write answering a record carries the ETag a GET of that record then returns, and a
 * 201 its `Location`, on the first answer and on an idempotent replay. The writes come from the served
 * document (every 201, every 200 of a POST, PATCH or PUT whose body is a record with an `id`); the calls
 * from the security table's rows (test/route-rows.ts).
 */
const t: TestApp = await createTestApp({ clock: new TestClock(), listen: true });
const origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
let admin: string;

interface DocOperation {
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string; properties?: object } }> }>;
}
const doc = (await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json() as {
  paths: Record<string, Record<string, DocOperation>>;
  components: { schemas: Record<string, { properties?: object }> };
};
const opOf = (op: Pick<Operation, "method" | "path">) => doc.paths[op.path]![op.method.toLowerCase()]!;

/** A 200 whose body is a record: its schema (or the component it names) has an `id`. */
function answersRecord(op: Operation, status: string): boolean {
  const schema = opOf(op).responses[status]?.content?.["application/json"]?.schema;
  const resolved = schema?.$ref ? doc.components.schemas[schema.$ref.split("/").pop()!] : schema;
  return resolved?.properties !== undefined && "id" in resolved.properties;
}

/** `/api/v1/deals/{id}/approve` → `/api/v1/deals/{id}`: the GET by id of the collection the write is under. */
const getOf = (path: string) => `${/^\/api\/v1\/[^/{]+/.exec(path)![0]}/{id}`;

const WRITES = (await operations(t)).filter(
  (op) =>
    op.access === "key" &&
    ["POST", "PATCH", "PUT"].includes(op.method) &&
    ("201" in opOf(op).responses || answersRecord(op, "200")),
);

/** Writes answering something no GET reads, so they carry neither (a reason each). */
const NO_GET: Record<string, string> = {
  "POST /api/v1/users/{id}/invitations": "an invitation is a one-time secret link: nothing reads it back",
  "POST /api/v1/webhook-deliveries/{id}/retry": "a delivery is read in its subscription's delivery log only",
};
/** Writes whose answer shows a secret once: an Idempotency-Key replay is refused, not repeated (API.md §2). */
const SECRET = new Set([
  "POST /api/v1/api-keys",
  "POST /api/v1/api-keys/{id}/rotate",
  "POST /api/v1/webhook-subscriptions",
  "POST /api/v1/webhook-subscriptions/{id}/rotate-secret",
]);

beforeAll(async () => {
  admin = (await createApiKey(t, "admin")).key;
  await prepareRoutes(t);
});

afterAll(async () => {
  await t.close();
});

const named = (op: Pick<Operation, "method" | "path">) => `${op.method} ${op.path}`;
let sent = 0;

async function get(url: string, key = admin) {
  const res = await t.app.inject({ method: "GET", url, headers: bearer(key) });
  expect(res.statusCode, `GET ${url}: ${res.body}`).toBe(200);
  return res;
}

/** The GET that reads what a write answered: its Location (201), else its collection's GET of the body's id. */
function recordUrl(op: Operation, res: LightMyRequestResponse): string {
  if (res.statusCode === 201) {
    // A record a path alone does not name (a day's exchange rates) has its key in the query: ?base=USD.
    const location = new URL(res.headers.location as string);
    return location.pathname + location.search;
  }
  return getOf(op.path).replace("{id}", res.json().id);
}

describe("the writes of the route table", () => {
  it("are found, each with a row", () => {
    expect(WRITES.length).toBeGreaterThan(20);
    for (const op of WRITES)
      expect(
        ROUTES.find((r) => named(r) === named(op)),
        named(op),
      ).toBeDefined();
  });

  it.each(Object.keys(NO_GET))("%s answers what no GET reads: neither ETag nor Location", async (name) => {
    const row = ROUTES.find((r) => named(r) === name)!;
    const res = await callRow(t, row, { key: admin });
    expect(res.statusCode, res.body).toBe(row.ok);
    expect([res.headers.etag, res.headers.location]).toEqual([undefined, undefined]);
  });
});

describe.each(WRITES.filter((op) => !NO_GET[named(op)]))("$method $path", (op) => {
  const row = ROUTES.find((r) => named(r) === named(op))!;

  it("carries the ETag a GET of the record then returns; a 201 its Location; a replay the same", async () => {
    const id = row.record ? await row.record(t) : row.param?.();
    const body = row.body?.();
    const headers = { "idempotency-key": `write-${++sent}` };
    const send = () => callRow(t, row, { key: admin, ...(id && { id }), body, headers });
    const res = await send();
    expect(res.statusCode, res.body).toBe(row.ok);
    const url = recordUrl(op, res);
    if (res.statusCode === 201) expect(res.headers.location).toBe(`${origin}${url}`);
    else expect(res.headers.location).toBeUndefined();
    const etag = res.headers.etag;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect((await get(url)).headers.etag, `GET ${url} after ${named(op)}`).toBe(etag);

    const replay = await send();
    if (SECRET.has(named(op))) {
      expect(replay.statusCode).toBe(409);
      return;
    }
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect([replay.statusCode, replay.headers.etag, replay.headers.location]).toEqual([
      res.statusCode,
      etag,
      res.headers.location,
    ]);
  });
});

describe("the ETag of a write is the next If-Match", () => {
  it("PUT by external id: 201, then a 200 update with its ETag as If-Match, then a stale one → 412", async () => {
    // A key of its own: the rows above (§18's draws among them) used the first one's 100 requests a minute.
    admin = (await createApiKey(t, "admin")).key;
    const api = new Api(t);
    const owner = (await api.post("/users", { name: "Owner", email: `owner.${Date.now()}@example.com` })).json();
    const url = "/api/v1/deals/by-external-id/crm-etag-chain";
    const put = (payload: object, ifMatch?: string) =>
      t.app.inject({
        method: "PUT",
        url,
        headers: { ...bearer(admin), ...(ifMatch && { "if-match": ifMatch }) },
        payload,
      });
    const created = await put(dealBody(owner.id));
    expect(created.statusCode).toBe(201);
    const updated = await put(dealBody(owner.id, { arr_amount: 12_345 }), created.headers.etag as string);
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.headers.etag).not.toBe(created.headers.etag);
    expect(updated.headers.etag).toBe((await get(`/api/v1/deals/${created.json().id}`)).headers.etag);
    const stale = await put(dealBody(owner.id, { arr_amount: 1 }), created.headers.etag as string);
    expect(stale.statusCode).toBe(412);
  });
});

describe("the same caller's GET", () => {
  it("a rep opening a dispute gets the ETag of the dispute as the rep reads it", async () => {
    const rep = await signedInAs(t, { role: "rep" });
    const deal = await createDeal(new Api(t), rep.user.id);
    await approveAsOwner(t, deal.id);
    const res = await t.app.inject({
      method: "POST",
      url: `/api/v1/deals/${deal.id}/disputes`,
      headers: rep.headers("POST"),
      payload: { reason: "wrong_amount", expected_amount: 1500 },
    });
    const dispute = ok<{ id: string }>(res, 201);
    expect(res.headers.location).toBe(`${origin}/api/v1/disputes/${dispute.id}`);
    const read = await t.app.inject({ method: "GET", url: `/api/v1/disputes/${dispute.id}`, headers: rep.headers() });
    expect(read.statusCode).toBe(200);
    expect(read.headers.etag).toBe(res.headers.etag);
  });
});
