import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSafeAgent } from "../../src/webhooks/index.js";
import { bearer, type TestApp } from "../harness.js";
import {
  closeAgents,
  deliveriesOf,
  drain,
  emitEvent,
  type Receiver,
  sourceFor,
  startReceiver,
  subscribe,
  webhookApp,
} from "./support.js";

let receiver: Receiver;
let t: TestApp;
let admin: string;

beforeAll(async () => {
  receiver = await startReceiver();
  t = await webhookApp(receiver);
  admin = (await t.key("admin")).key;
});
afterEach(async () => {
  // Each test starts with no pending deliveries of earlier ones and a clean receiver.
  await t.db.db.deleteFrom("webhook_subscriptions").execute();
  receiver.received.length = 0;
  receiver.replies.length = 0;
});
afterAll(async () => {
  await closeAgents();
  await t?.close();
  await receiver?.close();
});

const deal = { id: "deal_01", opportunity_name: "Acme", arr_amount: 30000, status: "approved" };

describe("a delivery as the receiver sees it", () => {
  it("is the event body of API.md §6, signed per Standard Webhooks, verified by the standardwebhooks library", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["deal.approved"] });
    const eventId = await emitEvent(t, "deal.approved", { object: deal });
    const sendingFrom = Math.floor(Date.now() / 1000);
    expect(await drain(sourceFor(t, receiver), new Date())).toBe(1);
    const sentBy = Math.ceil(Date.now() / 1000);
    const [got] = receiver.received;
    expect(got!.headers["content-type"]).toBe("application/json");
    expect(got!.headers["webhook-id"]).toBe(eventId);
    // The signing time, in whole seconds: taken while this delivery was being sent, however long that took.
    const signedAt = Number(got!.headers["webhook-timestamp"]);
    expect(signedAt).toBeGreaterThanOrEqual(sendingFrom);
    expect(signedAt).toBeLessThanOrEqual(sentBy);
    expect(got!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    const verified = new Webhook(sub.secret).verify(got!.body, got!.headers as Record<string, string>);
    expect(verified).toEqual({
      id: eventId,
      type: "deal.approved",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: { object: deal },
    });
    expect(Object.keys(JSON.parse(got!.body))).toEqual(["id", "type", "created_at", "data"]);
    const [delivery] = await deliveriesOf(t, admin, sub.id);
    expect(delivery).toMatchObject({
      subscription_id: sub.id,
      event_id: eventId,
      event_type: "deal.approved",
      status: "succeeded",
      next_attempt_at: null,
      attempts: [{ response_status: 200, error: null, response_body: "ok" }],
    });
    expect(delivery.id).toMatch(/^whdel_[0-9A-Z]{26}$/);
    expect(delivery.attempts[0].duration_ms).toBeGreaterThanOrEqual(0);
  });

  it("during rotation carries two signatures, each secret verifies alone; after 24 h only the new one", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    const rotated = await t.app.inject({
      method: "POST",
      url: `/api/v1/webhook-subscriptions/${sub.id}/rotate-secret`,
      headers: bearer(admin),
    });
    const secret = rotated.json().secret as string;
    await emitEvent(t, "deal.paid", { object: deal });
    await drain(sourceFor(t, receiver), new Date());
    const during = receiver.received[0]!;
    const headers = during.headers as Record<string, string>;
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(new Webhook(secret).verify(during.body, headers)).toBeTruthy();
    expect(new Webhook(sub.secret).verify(during.body, headers)).toBeTruthy();

    await t.db.db
      .updateTable("webhook_subscriptions")
      .set({ previous_secret_expires_at: new Date(Date.now() - 1) })
      .where("id", "=", sub.id)
      .execute();
    await emitEvent(t, "deal.paid", { object: deal });
    await drain(sourceFor(t, receiver), new Date());
    const after = receiver.received[1]!;
    const afterHeaders = after.headers as Record<string, string>;
    expect(afterHeaders["webhook-signature"]!.split(" ")).toHaveLength(1);
    expect(new Webhook(secret).verify(after.body, afterHeaders)).toBeTruthy();
    expect(() => new Webhook(sub.secret).verify(after.body, afterHeaders)).toThrow();
  });

  it("POST /test answers 202 with the event and delivers webhook.test to that subscription only", async () => {
    const tested = await subscribe(t, admin, { url: `${receiver.url}/tested`, events: ["deal.paid"] });
    await subscribe(t, admin, { url: `${receiver.url}/other`, events: ["*"] });
    const res = await t.app.inject({
      method: "POST",
      url: `/api/v1/webhook-subscriptions/${tested.id}/test`,
      headers: bearer(admin),
    });
    expect(res.statusCode, res.body).toBe(202);
    const event = res.json();
    expect(event).toMatchObject({ type: "webhook.test", data: { object: { id: tested.id, url: tested.url } } });
    expect(event.id).toMatch(/^evt_/);
    expect(JSON.stringify(event)).not.toContain(tested.secret);
    expect(await drain(sourceFor(t, receiver), new Date())).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    expect(got.headers["webhook-id"]).toBe(event.id);
    expect(new Webhook(tested.secret).verify(got.body, got.headers as Record<string, string>)).toEqual(event);
  });
});

describe("what counts as delivered", () => {
  it("keeps only the first 20 KB of a response", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    receiver.replies.push({ status: 200, body: "x".repeat(50_000) });
    await emitEvent(t, "deal.created", { object: deal });
    await drain(sourceFor(t, receiver), new Date());
    const [delivery] = await deliveriesOf(t, admin, sub.id);
    expect(delivery.attempts[0].response_body).toHaveLength(20 * 1024);
  });

  it("a 302 is a failed attempt and the redirect is not followed", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    receiver.replies.push({ status: 302, headers: { location: `${receiver.url}/elsewhere` } });
    await emitEvent(t, "deal.created", { object: deal });
    await drain(sourceFor(t, receiver), new Date());
    expect(receiver.received).toHaveLength(1);
    const [delivery] = await deliveriesOf(t, admin, sub.id);
    expect(delivery.status).toBe("pending");
    expect(delivery.attempts).toMatchObject([
      { response_status: 302, error: `redirect to ${receiver.url}/elsewhere not followed` },
    ]);
    expect(delivery.next_attempt_at).not.toBeNull();
  });

  it.each([500, 404, 400])("a %i is a failed attempt, scheduled for retry", async (status) => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    receiver.replies.push({ status, body: "nope" });
    await emitEvent(t, "deal.created", { object: deal });
    await drain(sourceFor(t, receiver), new Date());
    const [delivery] = await deliveriesOf(t, admin, sub.id);
    expect(delivery).toMatchObject({
      status: "pending",
      attempts: [{ response_status: status, response_body: "nope" }],
    });
  });

  it("a timeout is a failed attempt with no status", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    receiver.replies.push("hold");
    await emitEvent(t, "deal.created", { object: deal });
    await drain(sourceFor(t, receiver, { timeoutMs: 300 }), new Date());
    const [delivery] = await deliveriesOf(t, admin, sub.id);
    expect(delivery.status).toBe("pending");
    expect(delivery.attempts).toMatchObject([
      { response_status: null, error: "timeout: no complete response within 300 ms", response_body: null },
    ]);
  });

  it("the target is checked again at delivery: without the exemption the connection is refused", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    await emitEvent(t, "deal.created", { object: deal });
    const strict = createSafeAgent({ allowHosts: [], allowHttp: false });
    try {
      await drain(sourceFor(t, receiver, { agent: strict }), new Date());
    } finally {
      await strict.close();
    }
    expect(receiver.received).toHaveLength(0);
    const [delivery] = await deliveriesOf(t, admin, sub.id);
    expect(delivery.attempts[0]).toMatchObject({
      response_status: null,
      error: expect.stringMatching(/^refused: url must use https/),
    });
  });
});
