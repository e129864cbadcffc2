import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { OpenAPIV3_1 } from "openapi-types";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DealDetail } from "../../src/deals/index.js";
import type { Dispute } from "../../src/disputes/index.js";
import { EVENT_TYPES } from "../../src/events/catalogue.js";
import { Api, createDeal, ok, repOnPlan } from "../factories-commissions.js";
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

/**
 * #26: the document's `webhooks` name every event of the catalogue with the schema of its body, and the
 * bodies a subscriber really receives (one of each type, signed) match those schemas.
 */

let receiver: Receiver;
let t: TestApp;
let api: Api;
let doc: OpenAPIV3_1.Document;
let secret = "";

beforeAll(async () => {
  receiver = await startReceiver();
  t = await webhookApp(receiver);
  api = new Api(t);
  doc = ok<OpenAPIV3_1.Document>(await api.get("/openapi.json"));
  const adminKey = (await t.key("admin")).key;
  const subscription = await subscribe(t, adminKey, { url: receiver.url, events: ["*"] });
  secret = subscription.secret;
  await everyEvent(subscription.id);
  expect(await drain(sourceFor(t, receiver), new Date())).toBeGreaterThan(EVENT_TYPES.length);
});
afterAll(async () => {
  await closeAgents();
  await t?.close();
  await receiver?.close();
});

const PAYOUT_RUN = { through: "2026-11-01", pay_date: "2026-11-15" };

/** Walks deals and payout runs through every transition the catalogue announces, and sends the subscription its test. */
async function everyEvent(subscriptionId: string): Promise<void> {
  const { user } = await repOnPlan(api);
  const deal = await createDeal(api, user.id);
  ok(await api.patch(`/deals/${deal.id}`, { opportunity_name: "Renamed" }));
  ok(await api.post(`/deals/${deal.id}/approve`));
  const dispute = ok<Dispute>(await api.post(`/deals/${deal.id}/disputes`, { reason: "other" }), 201);
  ok(await api.post(`/disputes/${dispute.id}/resolve`, { outcome: "denied" }));
  ok<DealDetail>(await api.post(`/deals/${deal.id}/mark-paid`));
  ok(await api.post(`/deals/${deal.id}/refunds`, { amount: 100, effective_date: "2026-08-01" }), 201);
  ok(await api.post(`/deals/${deal.id}/cancel`, { reason: "churned", effective_date: "2026-08-01" }));
  const rejected = await createDeal(api, user.id);
  ok(await api.post(`/deals/${rejected.id}/reject`, { reason: "duplicate" }));
  const deleted = await createDeal(api, user.id);
  ok(await api.del(`/deals/${deleted.id}`), 204);
  const cancelled = ok<{ id: string }>(await api.post("/payout-runs", PAYOUT_RUN), 201);
  ok(await api.post(`/payout-runs/${cancelled.id}/cancel`));
  const finalized = ok<{ id: string }>(await api.post("/payout-runs", PAYOUT_RUN), 201);
  ok(await api.post(`/payout-runs/${finalized.id}/finalize`));
  const draw = ok<{ id: string }>(
    await api.post("/draws", {
      user_id: user.id,
      kind: "recoverable",
      amount: 1000,
      period: "month",
      starts_on: "2020-01-01",
      ends_on: "2020-03-31",
    }),
    201,
  );
  ok(await api.post(`/payout-runs`, { through: "2020-01-31", pay_date: "2020-02-05", user_ids: [user.id] }), 201);
  ok(await api.post(`/draws/${draw.id}/forgive`, { amount: 100, reason: "Welcome" }));
  ok(await api.post(`/draws/${draw.id}/end`, { effective_date: "2020-01-31" }));
  ok(await api.put("/settings/accounting", { expected_customer_life_months: 48 }));
  ok(await api.post(`/webhook-subscriptions/${subscriptionId}/test`), 202);
}

describe("#26 the OpenAPI webhooks section", () => {
  it("lists every event type of the catalogue with its signature headers and a named body schema", () => {
    expect(Object.keys(doc.webhooks ?? {})).toEqual([...EVENT_TYPES]);
    for (const type of EVENT_TYPES) {
      const operation = (doc.webhooks![type] as OpenAPIV3_1.PathItemObject).post!;
      const body = operation.requestBody as OpenAPIV3_1.RequestBodyObject;
      expect(body.content["application/json"]?.schema, type).toMatchObject({
        $ref: expect.stringMatching(/^#\/components\/schemas\/[A-Za-z]+Event$/),
      });
      expect(operation.parameters, type).toEqual([
        { $ref: "#/components/parameters/WebhookId" },
        { $ref: "#/components/parameters/WebhookTimestamp" },
        { $ref: "#/components/parameters/WebhookSignature" },
      ]);
    }
  });

  it("every body a subscriber receives matches its event's schema, and its type is the one listed", () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
    const seen = new Set<string>();
    const problems: string[] = [];
    for (const got of receiver.received) {
      const verified = new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as { type: string };
      seen.add(verified.type);
      const body = (doc.webhooks![verified.type] as OpenAPIV3_1.PathItemObject).post!
        .requestBody as OpenAPIV3_1.RequestBodyObject;
      const schema = body.content["application/json"]!.schema as { $ref: string };
      if (!ajv.validate({ $ref: `doc${schema.$ref}` }, verified)) {
        problems.push(`${verified.type}: ${ajv.errorsText()}`);
      }
    }
    expect(problems).toEqual([]);
    expect([...seen].sort()).toEqual([...EVENT_TYPES].sort());
  });
});
