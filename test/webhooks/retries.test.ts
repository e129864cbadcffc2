import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RETRY_DELAYS_MS } from "../../src/webhooks/testing.js";
import { errorOf } from "../factories.js";
import { bearer, type TestApp, TestClock } from "../harness.js";
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

const DAY = 86_400_000;
let receiver: Receiver;
let t: TestApp;
let clock: TestClock;
let admin: string;
let source: ReturnType<typeof sourceFor>;

beforeAll(async () => {
  receiver = await startReceiver();
  clock = new TestClock();
  t = await webhookApp(receiver, clock);
  admin = (await t.key("admin")).key;
  source = sourceFor(t, receiver, { clock: clock.now, random: () => 0.5 });
});
afterEach(async () => {
  await t.db.db.deleteFrom("webhook_subscriptions").execute();
  receiver.received.length = 0;
  receiver.replies.length = 0;
});
afterAll(async () => {
  await closeAgents();
  await t?.close();
  await receiver?.close();
});

const failWith = (status: number, times: number, headers: Record<string, string> = {}) => {
  for (let i = 0; i < times; i++) receiver.replies.push({ status, headers, body: `${status}` });
};
const run = () => drain(source, clock.now());
const api = (method: "GET" | "POST" | "PATCH", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(admin), ...(payload ? { payload } : {}) });
const subscription = async (id: string) => (await api("GET", `/webhook-subscriptions/${id}`)).json();

describe("retries on the schedule, with an injected clock and fixed jitter", () => {
  it("attempts at 0, +5 s, +5 min, … +24 h, then fails; never a moment early", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    failWith(500, 10);
    const start = clock.ms;
    await emitEvent(t, "deal.created", { object: { id: "deal_1" } });
    expect(await run()).toBe(1);
    const expected = [start];
    for (const delay of RETRY_DELAYS_MS) {
      clock.advance(delay - 1);
      expect(await run()).toBe(0);
      clock.advance(1);
      expect(await run()).toBe(1);
      expected.push(clock.ms);
    }
    clock.advance(7 * DAY);
    expect(await run()).toBe(0);
    const [delivery] = await deliveriesOf(t, admin, sub.id);
    expect(delivery.status).toBe("failed");
    expect(delivery.next_attempt_at).toBeNull();
    expect(delivery.attempts.map((a: { attempted_at: string }) => Date.parse(a.attempted_at))).toEqual(expected);
    const ids = new Set(receiver.received.map((r) => r.headers["webhook-id"]));
    expect(ids.size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    expect((await subscription(sub.id)).status).toBe("active");
  });

  it("jitter moves the next attempt within ±20 %", async () => {
    await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    failWith(500, 1);
    await emitEvent(t, "deal.created", { object: { id: "deal_2" } });
    const early = sourceFor(t, receiver, { clock: clock.now, random: () => 0 });
    await drain(early, clock.now());
    clock.advance(3_999);
    expect(await drain(early, clock.now())).toBe(0);
    clock.advance(1);
    expect(await drain(early, clock.now())).toBe(1);
  });
});

describe("Retry-After", () => {
  it.each([
    [429, "120", 120_000],
    [503, "3600", 3_600_000],
  ])("a %i with Retry-After %s waits that long", async (status, value, wait) => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    failWith(status, 1, { "retry-after": value });
    await emitEvent(t, "deal.created", { object: {} });
    await run();
    const [delivery] = await deliveriesOf(t, admin, sub.id);
    expect(Date.parse(delivery.next_attempt_at)).toBe(clock.ms + wait);
    clock.advance(wait - 1);
    expect(await run()).toBe(0);
    clock.advance(1);
    expect(await run()).toBe(1);
  });

  it("as an HTTP date", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    failWith(503, 1, { "retry-after": new Date(clock.ms + 2 * 3_600_000).toUTCString() });
    await emitEvent(t, "deal.created", { object: {} });
    await run();
    const [delivery] = await deliveriesOf(t, admin, sub.id);
    expect(Date.parse(delivery.next_attempt_at)).toBe(clock.ms + 2 * 3_600_000);
  });
});

describe("disabling", () => {
  it("a 410 fails the delivery and disables the subscription at once; others wait until it is enabled", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    failWith(410, 1);
    await emitEvent(t, "deal.created", { object: { n: 1 } });
    clock.advance(1);
    await emitEvent(t, "deal.created", { object: { n: 2 } });
    const [first] = await source.claim("w", 1, clock.now());
    await source.run(first!, "w");
    expect(await run()).toBe(0);
    const after = await subscription(sub.id);
    expect(after).toMatchObject({ status: "disabled", disabled_reason: expect.stringContaining("410 Gone") });
    const deliveries = await deliveriesOf(t, admin, sub.id);
    const gone = deliveries.find((d) => d.id === first!.id);
    expect(gone).toMatchObject({ status: "failed", next_attempt_at: null, attempts: [{ response_status: 410 }] });
    const waiting = deliveries.find((d) => d.id !== gone.id);
    expect(waiting).toMatchObject({ status: "pending", attempts: [] });
    clock.advance(DAY);
    expect(await run()).toBe(0);
    expect((await api("PATCH", `/webhook-subscriptions/${sub.id}`, { status: "active" })).json()).toMatchObject({
      status: "active",
      disabled_reason: null,
    });
    expect(await run()).toBe(1);
    expect(receiver.received).toHaveLength(2);
  });

  it("5 days of failures with no success disable it", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    const start = clock.ms;
    failWith(500, 1);
    await emitEvent(t, "deal.created", { object: { n: 1 } });
    await run();
    clock.ms = start + 5 * DAY - 1;
    await t.db.db.deleteFrom("webhook_deliveries").execute();
    failWith(500, 2);
    await emitEvent(t, "deal.created", { object: { n: 2 } });
    await run();
    expect((await subscription(sub.id)).status).toBe("active");
    clock.advance(5_000);
    await run();
    expect(await subscription(sub.id)).toMatchObject({
      status: "disabled",
      disabled_reason: expect.stringContaining("5 days"),
    });
  });

  it("a success clears the failure clock", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    const start = clock.ms;
    failWith(500, 1);
    await emitEvent(t, "deal.created", { object: {} });
    await run();
    clock.ms = start + DAY;
    await emitEvent(t, "deal.created", { object: {} });
    await run();
    const row = () =>
      t.db.db.selectFrom("webhook_subscriptions").select("failing_since").where("id", "=", sub.id).executeTakeFirst();
    expect((await row())?.failing_since).toBeNull();
    clock.ms = start + 6 * DAY;
    failWith(500, 5);
    await emitEvent(t, "deal.created", { object: {} });
    await run();
    expect((await subscription(sub.id)).status).toBe("active");
  });
});

describe("POST /webhook-deliveries/{id}/retry", () => {
  it("a succeeded delivery gets exactly one more attempt now, with the same webhook-id", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    await emitEvent(t, "deal.paid", { object: {} });
    await run();
    const [delivered] = await deliveriesOf(t, admin, sub.id);
    const res = await api("POST", `/webhook-deliveries/${delivered.id}/retry`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: delivered.id,
      status: "pending",
      next_attempt_at: clock.now().toISOString(),
    });
    failWith(500, 1);
    expect(await run()).toBe(1);
    const [after] = await deliveriesOf(t, admin, sub.id);
    expect(after).toMatchObject({ status: "failed", next_attempt_at: null });
    expect(after.attempts.map((a: { response_status: number }) => a.response_status)).toEqual([200, 500]);
    expect(receiver.received.map((r) => r.headers["webhook-id"])).toEqual([delivered.event_id, delivered.event_id]);
  });

  it("a pending delivery is attempted now and keeps its schedule", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    failWith(500, 2);
    await emitEvent(t, "deal.paid", { object: {} });
    await run();
    const [pending] = await deliveriesOf(t, admin, sub.id);
    await api("POST", `/webhook-deliveries/${pending.id}/retry`);
    expect(await run()).toBe(1);
    const [after] = await deliveriesOf(t, admin, sub.id);
    expect(after.status).toBe("pending");
    expect(Date.parse(after.next_attempt_at)).toBe(clock.ms + RETRY_DELAYS_MS[1]!);
  });

  it("409 while an attempt holds the lease, and while the subscription is disabled", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    await emitEvent(t, "deal.paid", { object: {} });
    const [claimed] = await source.claim("busy-worker", 10, clock.now());
    const busy = await api("POST", `/webhook-deliveries/${claimed!.id}/retry`);
    expect(busy.statusCode).toBe(409);
    expect(errorOf(busy)).toMatchObject({ code: "conflict", message: expect.stringContaining("being attempted") });
    await source.release("busy-worker");
    await api("PATCH", `/webhook-subscriptions/${sub.id}`, { status: "disabled" });
    const disabled = await api("POST", `/webhook-deliveries/${claimed!.id}/retry`);
    expect(disabled.statusCode).toBe(409);
    expect(errorOf(disabled)).toMatchObject({
      code: "invalid_transition",
      message: expect.stringContaining("disabled"),
    });
    const test = await api("POST", `/webhook-subscriptions/${sub.id}/test`);
    expect(errorOf(test).code).toBe("invalid_transition");
  });
});
