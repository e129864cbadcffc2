import type { OpenAPIV3_1 } from "openapi-types";
import { afterAll, describe, expect, it } from "vitest";
import type { Assignment } from "../../src/comp-plans/index.js";
import type { Deal, DealDetail } from "../../src/deals/index.js";
import { etagOf } from "../../src/http/etag.js";
import type { Page } from "../../src/http/pagination.js";
import type { SpiffWritten } from "../../src/spiffs/testing.js";
import { createUser, unique } from "../factories.js";
import { Api, assign, createDeal, createPlan, dealBody, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { createWebhookSubscription } from "../webhooks/support.js";

/**
 * #13.36: PATCH and PUT honour If-Match (API.md §2 "Optimistic concurrency"). A tag that is not the
 * current ETag of the record's GET → 412 precondition_failed and nothing changes; two editors holding
 * one ETag cannot both win. One row per PATCH/PUT route; the coverage test fails for a missing one.
 */

const t: TestApp = await createTestApp();
const api = new Api(t);

interface Record_ {
  /** The write's URL under /api/v1. */
  url: string;
  /** The record's current ETag, as its GET gives it. */
  etag: () => Promise<string>;
}

interface Row {
  create: () => Promise<Record_>;
  /** A body that changes the record; `n` makes each one different. */
  change: (n: number) => unknown;
  /** What the answer holds of that body (default: the body's fields). */
  echo?: (body: unknown) => object;
}

async function etagOfGet(url: string): Promise<string> {
  const res = await api.get(url);
  expect(res.statusCode, res.body).toBe(200);
  return res.headers.etag as string;
}

let owner = "";
let rateDays = 0;
let settingsChanges = 0;
const ownerId = async () => {
  owner ||= (await createUser(t)).id;
  return owner;
};

const ROWS: Record<string, Row> = {
  "PATCH /api/v1/users/{id}": {
    create: async () => {
      const { id } = await createUser(t);
      return { url: `/users/${id}`, etag: () => etagOfGet(`/users/${id}`) };
    },
    change: () => ({ name: unique("Renamed") }),
  },
  "PUT /api/v1/users/{id}/reporting-lines": {
    create: async () => {
      const { id } = await createUser(t);
      const url = `/users/${id}/reporting-lines`;
      return { url, etag: () => etagOfGet(url) };
    },
    // A different first date each time: the history changes.
    change: (n) => ({ lines: [{ manager_id: null, effective_from: `2026-01-${String(n + 1).padStart(2, "0")}` }] }),
    echo: (body) => ({ data: (body as { lines: object[] }).lines }),
  },
  "PATCH /api/v1/comp-plans/{id}": {
    create: async () => {
      const { id } = await createPlan(api);
      return { url: `/comp-plans/${id}`, etag: () => etagOfGet(`/comp-plans/${id}`) };
    },
    change: () => ({ name: unique("Plan") }),
  },
  "PATCH /api/v1/plan-assignments/{id}": {
    // No GET of its own: its representation is the item GET /comp-plans/{id}/assignments lists.
    create: async () => {
      const plan = await createPlan(api);
      const { id } = await assign(api, plan.id, (await createUser(t)).id);
      const etag = async () => {
        const list = ok<Page<Assignment>>(await api.get(`/comp-plans/${plan.id}/assignments`));
        return etagOf(JSON.stringify(list.data.find((a: { id: string }) => a.id === id)));
      };
      return { url: `/plan-assignments/${id}`, etag };
    },
    change: (n) => ({ quota_override: 5000 + n }),
  },
  "PATCH /api/v1/spiffs/{id}": {
    create: async () => {
      const body = { name: "S", starts_on: "2020-01-01", ends_on: "2020-01-31", payout: { type: "flat", amount: 1 } };
      const { id } = ok<SpiffWritten>(await api.post("/spiffs", body), 201);
      return { url: `/spiffs/${id}`, etag: () => etagOfGet(`/spiffs/${id}`) };
    },
    change: () => ({ name: unique("S") }),
  },
  "PATCH /api/v1/webhook-subscriptions/{id}": {
    create: async () => {
      const { id } = await createWebhookSubscription(t);
      return { url: `/webhook-subscriptions/${id}`, etag: () => etagOfGet(`/webhook-subscriptions/${id}`) };
    },
    change: () => ({ description: unique("hooks") }),
  },
  "PATCH /api/v1/deals/{id}": {
    create: async () => {
      const { id } = await createDeal(api, await ownerId());
      return { url: `/deals/${id}`, etag: () => etagOfGet(`/deals/${id}`) };
    },
    change: (n) => ({ arr_amount: 20000 + n }),
  },
  "PUT /api/v1/deals/by-external-id/{external_id}": {
    create: async () => {
      const externalId = unique("crm");
      const user = await ownerId();
      const { id } = ok<DealDetail>(await api.put(`/deals/by-external-id/${externalId}`, dealBody(user)), 201);
      return { url: `/deals/by-external-id/${externalId}`, etag: () => etagOfGet(`/deals/${id}`) };
    },
    change: (n) => dealBody(owner, { opportunity_name: "Renewal", arr_amount: 30000 + n }),
  },
  "PUT /api/v1/exchange-rates/{date}": {
    // A day of its own per record: the set of that day and base is the record.
    create: async () => {
      const date = `2024-02-${String(++rateDays).padStart(2, "0")}`;
      const url = `/exchange-rates/${date}`;
      ok(await api.put(url, { base: "USD", rates: { EUR: "0.9" } }), 201);
      return { url, etag: () => etagOfGet(`${url}?base=USD`) };
    },
    change: (n) => ({ base: "USD", rates: { EUR: `0.9${n + 1}` } }),
  },
  "PUT /api/v1/settings/accounting": {
    // One record for the whole service: each change names a life of its own.
    create: async () => ({ url: "/settings/accounting", etag: () => etagOfGet("/settings/accounting") }),
    change: (n) => ({ expected_customer_life_months: 20 + n + 10 * ++settingsChanges }),
  },
};

const WRITES: string[] = await (async () => {
  const doc = ok(await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" })) as {
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  };
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => m === "patch" || m === "put")
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
})();

afterAll(async () => {
  await t.close();
});

function write(row: string, url: string, body: unknown, ifMatch?: string) {
  const method = row.split(" ")[0] as "PATCH" | "PUT";
  return api.request(method, url, body, ifMatch === undefined ? {} : { "if-match": ifMatch });
}

function expectPreconditionFailed(res: Awaited<ReturnType<typeof write>>): void {
  expect(res.statusCode, res.body).toBe(412);
  expect(res.json().error.code).toBe("precondition_failed");
  expect(res.json().error.request_id).toBe(res.headers["request-id"]);
}

describe("#13.36 If-Match on PATCH and PUT", () => {
  it("has one row per PATCH/PUT route, and each documents 412", async () => {
    expect(Object.keys(ROWS).sort()).toEqual([...WRITES].sort());
    const doc = ok<OpenAPIV3_1.Document>(await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" }));
    for (const name of WRITES) {
      const [method, path] = name.split(" ") as [string, string];
      expect(
        doc.paths?.[path]?.[method.toLowerCase() as OpenAPIV3_1.HttpMethods]?.responses?.["412"],
        name,
      ).toBeDefined();
    }
  });

  describe.each(Object.entries(ROWS))("%s", (name, row) => {
    it("a stale ETag → 412 precondition_failed, and nothing changes", async () => {
      const record = await row.create();
      const before = await record.etag();
      for (const stale of ['"stale"', `W/${before}`, `"${before.slice(2)}`]) {
        expectPreconditionFailed(await write(name, record.url, row.change(1), stale));
      }
      expect(await record.etag()).toBe(before);
    });

    it("the current ETag (alone, in a list, or *) → 200; the replaced one is stale after", async () => {
      const record = await row.create();
      const first = await record.etag();
      expect((await write(name, record.url, row.change(2), first)).statusCode).toBe(200);
      const second = await record.etag();
      expect(second).not.toBe(first);
      expectPreconditionFailed(await write(name, record.url, row.change(3), first));
      expect(await record.etag()).toBe(second);
      expect((await write(name, record.url, row.change(4), `"other", ${second}`)).statusCode).toBe(200);
      expect((await write(name, record.url, row.change(5), "*")).statusCode).toBe(200);
      expect((await write(name, record.url, row.change(6))).statusCode).toBe(200);
    });

    it("two concurrent writes holding the same ETag: one wins, the other gets 412", async () => {
      const record = await row.create();
      const etag = await record.etag();
      const bodies = [7, 8, 9].map((n) => row.change(n));
      const results = await Promise.all(bodies.map((body) => write(name, record.url, body, etag)));
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 412, 412]);
      const winner = results.findIndex((r) => r.statusCode === 200);
      expect(results[winner]!.json()).toMatchObject(row.echo?.(bodies[winner]) ?? (bodies[winner] as object));
    });
  });

  it("PUT by external id with If-Match on a deal that does not exist → 412, nothing created", async () => {
    const externalId = unique("crm");
    const res = await write("PUT", `/deals/by-external-id/${externalId}`, dealBody(await ownerId()), "*");
    expectPreconditionFailed(res);
    const found = ok<Page<Deal>>(await api.get(`/deals?external_id=${externalId}`));
    expect(found.meta.total).toBe(0);
  });

  it("an unknown record with If-Match → 404 (the record is checked first)", async () => {
    const res = await write("PATCH", "/users/usr_00000000000000000000000000", { name: "X" }, '"stale"');
    expect(res.statusCode).toBe(404);
  });
});
