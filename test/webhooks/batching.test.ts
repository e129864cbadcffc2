import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type AttemptEntry, claimDeliveries, recordAttempts } from "../../src/webhooks/testing.js";
import type { TestApp } from "../harness.js";
import { closeAgents, emitEvent, type Receiver, sourceFor, startReceiver, subscribe, webhookApp } from "./support.js";

let receiver: Receiver;
let t: TestApp;
let admin: string;

beforeAll(async () => {
  receiver = await startReceiver();
  t = await webhookApp(receiver);
  admin = (await t.key("admin")).key;
});
afterEach(async () => {
  await t.db.db.deleteFrom("webhook_subscriptions").execute();
});
afterAll(async () => {
  await closeAgents();
  await t?.close();
  await receiver?.close();
});

async function leases() {
  const rows = await t.db.db
    .selectFrom("webhook_deliveries")
    .select(["id", "claimed_by", "attempt_count"])
    .orderBy("id")
    .execute();
  return rows.map((r) => `${r.claimed_by ?? "-"}:${r.attempt_count}`).sort();
}

describe("claims ahead of free slots", () => {
  it("one statement leases a batch; later claims are served from it; release gives unstarted ones back whole", async () => {
    await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    for (let i = 0; i < 6; i++) await emitEvent(t, "deal.created", { object: { i } });
    const source = sourceFor(t, receiver, { claimBatch: 5 });
    const now = new Date();
    expect(await source.claim("w", 1, now)).toHaveLength(1);
    expect(await leases()).toEqual(["-:0", "w:1", "w:1", "w:1", "w:1", "w:1"]);
    expect(await source.claim("w", 2, now)).toHaveLength(2);
    expect(await leases()).toEqual(["-:0", "w:1", "w:1", "w:1", "w:1", "w:1"]);
    await source.release("w");
    // The three handed to the worker count as attempted (they may have reached the receiver).
    expect(await leases()).toEqual(["-:0", "-:0", "-:0", "-:1", "-:1", "-:1"]);
  });

  it("deliveries held past half the lease go back and are claimed afresh", async () => {
    await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    for (let i = 0; i < 3; i++) await emitEvent(t, "deal.created", { object: { i } });
    const source = sourceFor(t, receiver, { claimBatch: 3, leaseMs: 1000 });
    const now = new Date();
    const [first] = await source.claim("w", 1, now);
    const later = await source.claim("w", 1, new Date(now.getTime() + 501));
    expect(later).toHaveLength(1);
    expect(later[0]!.id).not.toBe(first!.id);
    expect(later[0]!.attempt_count).toBe(1);
    await source.release("w");
  });
});

describe("recording a batch of attempts in one statement", () => {
  const entry = (d: { id: string; attempt_count: number }, status: number): AttemptEntry => ({
    deliveryId: d.id,
    workerId: "w",
    attempt: d.attempt_count,
    attemptedAt: new Date(),
    responseStatus: status,
    durationMs: 3,
    error: null,
    responseBody: String(status),
    step:
      status === 200
        ? { status: "succeeded" }
        : status === 410
          ? { status: "failed" }
          : { status: "pending", nextAttemptAt: new Date(Date.now() + 5000) },
    succeeded: status === 200,
    gone: status === 410,
    staleBefore: new Date(Date.now() - 5 * 86_400_000),
  });

  it("moves each delivery and applies each subscription's verdict once (a 410 wins over a success)", async () => {
    const a = await subscribe(t, admin, { url: receiver.url, events: ["deal.paid"] });
    const b = await subscribe(t, admin, { url: receiver.url, events: ["deal.approved"] });
    await emitEvent(t, "deal.paid", { object: {} });
    await emitEvent(t, "deal.paid", { object: {} });
    await emitEvent(t, "deal.approved", { object: {} });
    const claimed = await claimDeliveries(t.db.db, "w", 10, new Date(), 60_000);
    const ofA = claimed.filter((d) => d.subscription_id === a.id);
    const ofB = claimed.filter((d) => d.subscription_id === b.id);
    await recordAttempts(t.db.db, [entry(ofA[0]!, 200), entry(ofA[1]!, 410), entry(ofB[0]!, 500)]);
    const subs = await t.db.db
      .selectFrom("webhook_subscriptions")
      .select(["id", "status", "failing_since", "disabled_reason"])
      .execute();
    expect(subs.find((s) => s.id === a.id)).toMatchObject({
      status: "disabled",
      disabled_reason: expect.stringContaining("410"),
    });
    expect(subs.find((s) => s.id === b.id)).toMatchObject({ status: "active", disabled_reason: null });
    expect(subs.find((s) => s.id === b.id)!.failing_since).not.toBeNull();
    const deliveries = await t.db.db.selectFrom("webhook_deliveries").select(["id", "status", "claimed_by"]).execute();
    const status = Object.fromEntries(deliveries.map((d) => [d.id, `${d.status}/${d.claimed_by}`]));
    expect([status[ofA[0]!.id], status[ofA[1]!.id], status[ofB[0]!.id]]).toEqual([
      "succeeded/null",
      "failed/null",
      "pending/null",
    ]);
    expect(await t.db.db.selectFrom("webhook_attempts").select("id").execute()).toHaveLength(3);
  });
});
