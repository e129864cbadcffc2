import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeCtx, OWNER } from "../../src/context.js";
import { emit } from "../../src/events/emit.js";
import { bearer, type TestApp } from "../harness.js";
import { emitEvent, type Receiver, startReceiver, subscribe, webhookApp } from "./support.js";

let receiver: Receiver;
let t: TestApp;
let admin: string;

beforeAll(async () => {
  receiver = await startReceiver();
  t = await webhookApp(receiver);
  admin = (await t.key("admin")).key;
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

async function deliveriesFor(eventId: string): Promise<string[]> {
  const rows = await t.db.db
    .selectFrom("webhook_deliveries")
    .select("subscription_id")
    .where("event_id", "=", eventId)
    .execute();
  return rows.map((r) => r.subscription_id).sort();
}

const patch = (id: string, body: object) =>
  t.app.inject({ method: "PATCH", url: `/api/v1/webhook-subscriptions/${id}`, headers: bearer(admin), payload: body });

describe("fan-out when the event is written", () => {
  it("one delivery per active subscription whose events match (* = all); disabled ones get none", async () => {
    const all = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    const approved = await subscribe(t, admin, { url: receiver.url, events: ["deal.approved", "deal.paid"] });
    const paid = await subscribe(t, admin, { url: receiver.url, events: ["deal.paid"] });
    const off = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    await patch(off.id, { status: "disabled" });

    expect(await deliveriesFor(await emitEvent(t, "deal.approved", { object: {} }))).toEqual(
      [all.id, approved.id].sort(),
    );
    expect(await deliveriesFor(await emitEvent(t, "deal.paid", { object: {} }))).toEqual(
      [all.id, approved.id, paid.id].sort(),
    );
    expect(await deliveriesFor(await emitEvent(t, "commission.calculated", { object: {} }))).toEqual([all.id]);
    const row = await t.db.db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where("subscription_id", "=", all.id)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "pending", attempt_count: 0, event_type: "deal.approved" });
    expect(row.id).toMatch(/^whdel_[0-9A-Z]{26}$/);
    for (const id of [all.id, approved.id, paid.id, off.id]) {
      await t.app.inject({ method: "DELETE", url: `/api/v1/webhook-subscriptions/${id}`, headers: bearer(admin) });
    }
  });

  it("follows the subscription as it was at write time: later changes never add or drop deliveries", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["deal.created"] });
    const before = await emitEvent(t, "deal.updated", { object: {} });
    await patch(sub.id, { events: ["deal.updated"] });
    const during = await emitEvent(t, "deal.updated", { object: {} });
    await patch(sub.id, { status: "disabled" });
    const whileOff = await emitEvent(t, "deal.updated", { object: {} });
    await patch(sub.id, { status: "active" });
    expect(await deliveriesFor(before)).toEqual([]);
    expect(await deliveriesFor(during)).toEqual([sub.id]);
    expect(await deliveriesFor(whileOff)).toEqual([]);
    await patch(sub.id, { events: ["deal.created"] });
    expect(await deliveriesFor(during)).toEqual([sub.id]);
  });

  it("exists exactly when the event's transaction commits", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    let eventId = "";
    await expect(
      t.db.db.transaction().execute(async (tx) => {
        eventId = await emit(tx, makeCtx(tx, "test", OWNER), "deal.rejected", { object: {} });
        expect(
          await tx.selectFrom("webhook_deliveries").select("id").where("event_id", "=", eventId).execute(),
        ).toHaveLength(1);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await deliveriesFor(eventId)).toEqual([]);
    expect(await t.db.db.selectFrom("events").select("id").where("id", "=", eventId).execute()).toEqual([]);
    await t.app.inject({ method: "DELETE", url: `/api/v1/webhook-subscriptions/${sub.id}`, headers: bearer(admin) });
  });

  it("webhook.test events are never fanned out", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    expect(await deliveriesFor(await emitEvent(t, "webhook.test", { object: {} }))).toEqual([]);
    await t.app.inject({ method: "DELETE", url: `/api/v1/webhook-subscriptions/${sub.id}`, headers: bearer(admin) });
  });

  it("deleting a subscription takes its deliveries and attempts with it", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    const eventId = await emitEvent(t, "deal.paid", { object: {} });
    expect(await deliveriesFor(eventId)).toEqual([sub.id]);
    await t.app.inject({ method: "DELETE", url: `/api/v1/webhook-subscriptions/${sub.id}`, headers: bearer(admin) });
    expect(await deliveriesFor(eventId)).toEqual([]);
  });
});
