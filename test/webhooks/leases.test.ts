import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/connect.js";
import { Worker } from "../../src/jobs/worker.js";
import { POSTGRES_URL, type TestApp } from "../harness.js";
import {
  closeAgents,
  emitEvent,
  type Receiver,
  silent,
  sourceFor,
  startReceiver,
  subscribe,
  webhookApp,
} from "./support.js";

let receiver: Receiver;
let t: TestApp;
let admin: string;
/** A second connection pool on the same database, as a second process would have (PostgreSQL runs). */
let other: Database | undefined;

beforeAll(async () => {
  receiver = await startReceiver();
  t = await webhookApp(receiver);
  admin = (await t.key("admin")).key;
  if (POSTGRES_URL) {
    const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(t.db.db);
    other = await openDatabase({ url: POSTGRES_URL, schema: rows[0]!.schema, poolSize: 5 });
  }
});
afterEach(async () => {
  await t.db.db.deleteFrom("webhook_subscriptions").execute();
  receiver.received.length = 0;
  receiver.replies.length = 0;
});
afterAll(async () => {
  await other?.close();
  await closeAgents();
  await t?.close();
  await receiver?.close();
});

async function emitMany(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await emitEvent(t, "deal.created", { object: { n: i } }));
  return ids;
}

const secondSource = () => sourceFor({ ...t, db: { ...t.db, db: other?.db ?? t.db.db } }, receiver);

describe("leases", () => {
  it("concurrent claims by two workers never take the same delivery", async () => {
    await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    await emitMany(40);
    const a = sourceFor(t, receiver);
    const b = secondSource();
    const now = new Date();
    const claimed: string[][] = [[], []];
    for (;;) {
      const [fromA, fromB] = await Promise.all([a.claim("a", 7, now), b.claim("b", 7, now)]);
      claimed[0]!.push(...fromA.map((d) => d.id));
      claimed[1]!.push(...fromB.map((d) => d.id));
      if (fromA.length + fromB.length === 0) break;
    }
    const all = [...claimed[0]!, ...claimed[1]!];
    expect(all).toHaveLength(40);
    expect(new Set(all).size).toBe(40);
    await a.release("a");
    await b.release("b");
  });

  it("two worker loops on one database deliver every event exactly once", async () => {
    await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    const ids = await emitMany(60);
    const sources = [sourceFor(t, receiver), secondSource()];
    const workers = sources.map(
      (source) => new Worker({ sources: [source], logger: silent, pollMs: 10, concurrency: 8 }),
    );
    for (const w of workers) w.start();
    await receiver.waitFor(60, 60_000);
    await Promise.all(workers.map((w) => w.stop(1000)));
    // Nothing delivered is claimable again, by either side: no duplicate can follow.
    for (const source of sources) expect(await source.claim("after", 100, new Date())).toEqual([]);
    const delivered = receiver.received.map((r) => r.headers["webhook-id"]);
    expect(delivered).toHaveLength(60);
    expect(new Set(delivered)).toEqual(new Set(ids));
    const statuses = await t.db.db.selectFrom("webhook_deliveries").select(["status", "attempt_count"]).execute();
    expect(statuses.every((s) => s.status === "succeeded" && s.attempt_count === 1)).toBe(true);
  });

  it("an expired lease makes the delivery claimable again; the dead holder's late result changes nothing", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    const [eventId] = await emitMany(1);
    const source = sourceFor(t, receiver, { leaseMs: 1000 });
    const now = new Date();
    const [stale] = await source.claim("dead", 10, now);
    expect(await source.claim("alive", 10, new Date(now.getTime() + 999))).toEqual([]);
    const [again] = await source.claim("alive", 10, new Date(now.getTime() + 1001));
    expect(again).toMatchObject({ id: stale!.id, attempt_count: 2 });
    await source.run(again!, "alive");
    receiver.replies.push({ status: 500 });
    await source.run(stale!, "dead");
    expect(receiver.received.map((r) => r.headers["webhook-id"])).toEqual([eventId, eventId]);
    const row = await t.db.db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where("subscription_id", "=", sub.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "succeeded", claimed_by: null, attempt_count: 2 });
    const attempts = await t.db.db
      .selectFrom("webhook_attempts")
      .select("response_status")
      .where("delivery_id", "=", row.id)
      .execute();
    expect(attempts.map((a) => a.response_status).sort()).toEqual([200, 500]);
  });

  it("stopping a worker releases its leases, so another takes the delivery at once", async () => {
    await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    await emitMany(1);
    receiver.replies.push("hold");
    const worker = new Worker({ sources: [sourceFor(t, receiver, { timeoutMs: 500 })], logger: silent, pollMs: 10 });
    worker.start();
    await receiver.waitFor(1);
    await worker.stop(50);
    const next = await sourceFor(t, receiver).claim("next", 10, new Date());
    expect(next).toHaveLength(1);
  });

  it("an exclusive source (embedded mode) takes back every lease left by a dead process at start", async () => {
    await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    await emitMany(2);
    const now = new Date();
    expect(await sourceFor(t, receiver).claim("killed-process", 10, now)).toHaveLength(2);
    const restarted = sourceFor(t, receiver, { exclusive: true });
    const claimed = await restarted.claim("restarted", 10, now);
    expect(claimed.map((d) => d.attempt_count)).toEqual([2, 2]);
    await restarted.release("restarted");
  });
});
