import type { OpenAPIV3_1 } from "openapi-types";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DealDetail } from "../../src/deals/index.js";
import type { BulkResult } from "../../src/deals/testing.js";
import type { Dispute } from "../../src/disputes/index.js";
import { EVENT_TYPES } from "../../src/events/catalogue.js";
import { createUser, unique } from "../factories.js";
import { Api, createDeal, eventsOf, ok, repOnPlan } from "../factories-commissions.js";
import type { TestApp } from "../harness.js";
import {
  closeAgents,
  drain,
  type Receiver,
  sourceFor,
  startReceiver,
  subscribe,
  webhookApp,
} from "../webhooks/support.js";

// #13.21: every write route of /deals announces the change with its deal.* event (deal.deleted included,
// carrying the deal as it was); the catalogue, the subscription validation and the OpenAPI agree.

let receiver: Receiver;
let t: TestApp;
let api: Api;
let adminKey: string;
beforeAll(async () => {
  receiver = await startReceiver();
  t = await webhookApp(receiver);
  api = new Api(t);
  adminKey = (await t.key("admin")).key;
});
afterAll(async () => {
  await closeAgents();
  await t?.close();
  await receiver?.close();
});

type DealWithLines = {
  id: string;
  owner_id: string;
  commissions?: unknown;
  recalculation_job_id?: unknown;
  people?: unknown;
};
/** A single-deal response as `deal.*` events carry it: without its lines and job id. */
const asEventObject = ({ commissions: _c, recalculation_job_id: _j, people: _p, ...deal }: DealWithLines) => deal;

async function pendingDeal(): Promise<DealWithLines> {
  const { user } = await repOnPlan(api);
  return createDeal(api, user.id, { external_id: unique("crm") });
}
async function approvedDeal(): Promise<DealWithLines> {
  const deal = await pendingDeal();
  return ok<DealDetail>(await api.post(`/deals/${deal.id}/approve`));
}

interface Case {
  /** Makes the deal the route acts on (none for creations). */
  given?: () => Promise<DealWithLines>;
  act: (deal: DealWithLines | undefined) => Promise<{ id: string; expected?: unknown }>;
  event: string;
}

/** One row per write operation under /deals in the OpenAPI document (checked below: none is missing). */
const CASES: Record<string, Case> = {
  "post /deals": {
    act: async () => ({ id: (await pendingDeal()).id }),
    event: "deal.created",
  },
  "put /deals/by-external-id/{external_id}": {
    act: async () => {
      const user = await createUser(t);
      const body = { opportunity_name: "Upserted", arr_amount: 100, close_date: "2026-07-01", owner_id: user.id };
      return { id: ok<DealDetail>(await api.put(`/deals/by-external-id/${unique("crm")}`, body), 201).id };
    },
    event: "deal.created",
  },
  "post /deals/bulk": {
    act: async () => {
      const user = await createUser(t);
      const deal = { external_id: unique("crm"), opportunity_name: "Bulk", arr_amount: 1, close_date: "2026-07-01" };
      return {
        id: ok<BulkResult>(await api.post("/deals/bulk", { deals: [{ ...deal, owner_id: user.id }] })).data[0]!.id,
      };
    },
    event: "deal.created",
  },
  "patch /deals/{id}": {
    given: pendingDeal,
    act: async (deal) => ({ id: ok<DealDetail>(await api.patch(`/deals/${deal!.id}`, { arr_amount: 20000 })).id }),
    event: "deal.updated",
  },
  "delete /deals/{id}": {
    given: pendingDeal,
    act: async (deal) => {
      const before = ok<DealDetail>(await api.get(`/deals/${deal!.id}`));
      ok(await api.del(`/deals/${deal!.id}`), 204);
      expect((await api.get(`/deals/${deal!.id}`)).statusCode).toBe(404);
      return { id: deal!.id, expected: asEventObject(before) };
    },
    event: "deal.deleted",
  },
  "post /deals/{id}/approve": {
    given: pendingDeal,
    act: async (deal) => ({ id: ok<DealDetail>(await api.post(`/deals/${deal!.id}/approve`)).id }),
    event: "deal.approved",
  },
  "post /deals/{id}/reject": {
    given: pendingDeal,
    act: async (deal) => ({
      id: ok<DealDetail>(await api.post(`/deals/${deal!.id}/reject`, { reason: "duplicate" })).id,
    }),
    event: "deal.rejected",
  },
  "post /deals/{id}/mark-paid": {
    given: approvedDeal,
    act: async (deal) => ({ id: ok<DealDetail>(await api.post(`/deals/${deal!.id}/mark-paid`)).id }),
    event: "deal.paid",
  },
  "post /deals/{id}/disputes": {
    given: approvedDeal,
    act: async (deal) => {
      ok<Dispute>(await api.post(`/deals/${deal!.id}/disputes`, { reason: "wrong_amount" }), 201);
      return { id: deal!.id };
    },
    event: "deal.disputed",
  },
  "post /deals/{id}/cancel": {
    given: approvedDeal,
    act: async (deal) => ({
      id: ok<DealDetail>(
        await api.post(`/deals/${deal!.id}/cancel`, { reason: "churned", effective_date: "2026-08-01" }),
      ).id,
    }),
    event: "deal.cancelled",
  },
  "post /deals/{id}/refunds": {
    given: approvedDeal,
    act: async (deal) => {
      ok(await api.post(`/deals/${deal!.id}/refunds`, { amount: 10, effective_date: "2026-08-01" }), 201);
      return { id: deal!.id };
    },
    event: "deal.refunded",
  },
};

/** POSTs under /deals that change nothing (a dry run), so they emit nothing. */
const DRY_RUNS = new Set(["post /deals/{id}/clawback-preview"]);

describe("#13.21 every write route of /deals emits its deal.* event", () => {
  it("the table covers every write operation under /deals in the OpenAPI document", async () => {
    const doc = ok<OpenAPIV3_1.Document>(await api.get("/openapi.json"));
    const writes = Object.entries(doc.paths ?? {})
      .filter(([path]) => path === "/api/v1/deals" || path.startsWith("/api/v1/deals/"))
      .flatMap(([path, ops]) =>
        Object.keys(ops ?? {})
          .filter((m) => ["post", "put", "patch", "delete"].includes(m))
          .map((m) => `${m} ${path.slice("/api/v1".length)}`),
      )
      .filter((operation) => !DRY_RUNS.has(operation));
    expect(writes.sort()).toEqual(Object.keys(CASES).sort());
  });

  for (const [operation, { given, act, event }] of Object.entries(CASES)) {
    it(`${operation} → one ${event} carrying the deal`, async () => {
      const deal = given && (await given());
      const seen = new Set((await t.db.db.selectFrom("events").select("id").execute()).map((e) => e.id));
      const { id, expected } = await act(deal);
      const rows = await t.db.db.selectFrom("events").select(["id", "type", "data"]).orderBy("id").execute();
      const fresh = rows.filter((r) => !seen.has(r.id) && r.type.startsWith("deal."));
      expect(fresh.map((r) => [r.type, (r.data as { object: { id: string } }).object.id])).toEqual([[event, id]]);
      const object = (fresh[0]!.data as { object: Record<string, unknown> }).object;
      expect(object).not.toHaveProperty("commissions");
      if (expected) expect(object).toEqual(expected);
    });
  }
});

describe("#13.21 deal.deleted", () => {
  it("is in the catalogue, accepted by subscriptions and listed in the OpenAPI webhooks with its body", async () => {
    expect(EVENT_TYPES).toContain("deal.deleted");
    const doc = ok<OpenAPIV3_1.Document>(await api.get("/openapi.json"));
    const hook = doc.webhooks?.["deal.deleted"] as OpenAPIV3_1.PathItemObject;
    const body = hook.post?.requestBody as OpenAPIV3_1.RequestBodyObject;
    expect(body.content["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/DealEvent" });
    const event = doc.components!.schemas!.DealEvent!;
    expect((event.properties!.type as OpenAPIV3_1.SchemaObject).enum).toContain("deal.deleted");
    const names = doc.components!.schemas!.WebhookEventName as OpenAPIV3_1.SchemaObject;
    expect(names.enum).toEqual(["*", ...EVENT_TYPES]);
    const sub = await subscribe(t, adminKey, { url: receiver.url, events: [...EVENT_TYPES] });
    expect(sub.events).toEqual([...EVENT_TYPES]);
    ok(await api.del(`/webhook-subscriptions/${sub.id}`), 204);
  });

  it("reaches a subscription to it, signed (Standard Webhooks), with the deal as it was", async () => {
    receiver.received.length = 0;
    const sub = await subscribe(t, adminKey, { url: receiver.url, events: ["deal.deleted"] });
    const deal = await pendingDeal();
    const before = ok<DealDetail>(await api.get(`/deals/${deal.id}`));
    ok(await api.del(`/deals/${deal.id}`), 204);
    expect(await drain(sourceFor(t, receiver), new Date())).toBe(1);
    const [got] = receiver.received;
    const verified = new Webhook(sub.secret).verify(got!.body, got!.headers as Record<string, string>);
    const [event] = (await eventsOf(t, "deal.deleted")).filter((e) => e.object.id === deal.id);
    expect(verified).toEqual({
      id: got!.headers["webhook-id"],
      type: "deal.deleted",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: { object: asEventObject(before) },
    });
    expect(event!.object).toEqual(asEventObject(before));
    ok(await api.del(`/webhook-subscriptions/${sub.id}`), 204);
  });
});
