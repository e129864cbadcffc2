import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { expect } from "vitest";
import { makeCtx, OWNER } from "../../src/context.js";
import type { EventData, EventType } from "../../src/events/catalogue.js";
import { emit } from "../../src/events/emit.js";
import { createSafeAgent, deliverySource } from "../../src/webhooks/index.js";
import {
  createSubscription,
  type DeliverySourceOptions,
  type SafeAgent,
  sendTest,
} from "../../src/webhooks/testing.js";
import { bearer, createTestApp, TEST_SECRET_KEY, type TestApp, type TestClock } from "../harness.js";

export const silent = pino({ level: "silent" });

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the receiver answers: status, headers, body; or `hold` to keep the request open. */
export type Reply = { status: number; headers?: Record<string, string>; body?: string } | "hold";

export interface Receiver {
  port: number;
  url: string;
  received: Received[];
  /** Answers for the next requests, in order; after them, 200. */
  replies: Reply[];
  /** Resolves when `n` requests have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

function answer(res: ServerResponse, reply: Reply | undefined): void {
  if (reply === "hold") return;
  const r = reply ?? { status: 200, body: "ok" };
  res.writeHead(r.status, r.headers ?? {});
  res.end(r.body ?? "");
}

/** A real HTTP receiver on 127.0.0.1 that records every request. */
export async function startReceiver(path = "/hooks"): Promise<Receiver> {
  const received: Received[] = [];
  const replies: Reply[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      for (const w of waiters.filter((w) => received.length >= w.n)) w.resolve();
      answer(res, replies.shift());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}${path}`,
    received,
    replies,
    waitFor(n, timeoutMs = 10_000) {
      if (received.length >= n) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${received.length} of ${n} requests arrived`)),
          timeoutMs,
        );
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve(received);
          },
        });
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A test app whose webhook policy exempts the receiver's loopback port (and allows its http). */
export function webhookApp(receiver: Receiver, clock?: TestClock): Promise<TestApp> {
  return createTestApp({
    ...(clock ? { clock } : {}),
    webhooks: { allowHosts: [`127.0.0.1:${receiver.port}`], allowHttp: true },
  });
}

const agents: SafeAgent[] = [];

/** A delivery source on the test database, through a safe agent with the same exemption. */
export function sourceFor(t: TestApp, receiver: Receiver, options: Partial<DeliverySourceOptions> = {}) {
  const agent = createSafeAgent({ allowHosts: [`127.0.0.1:${receiver.port}`], allowHttp: true });
  agents.push(agent);
  return deliverySource({ db: t.db.db, agent, secretKey: TEST_SECRET_KEY, logger: silent, ...options });
}

export async function closeAgents(): Promise<void> {
  await Promise.all(agents.splice(0).map((a) => a.close()));
}

/** Claims and runs every due delivery as worker `workerId` until none is due at `now`. */
export async function drain(source: ReturnType<typeof sourceFor>, now: Date, workerId = "test-worker") {
  let total = 0;
  for (;;) {
    const items = await source.claim(workerId, 50, now);
    if (items.length === 0) return total;
    await Promise.all(items.map((item) => source.run(item, workerId)));
    total += items.length;
  }
}

/** An event written to the outbox in its own transaction, as a service would. */
export async function emitEvent(t: TestApp, type: EventType, data: EventData, now?: Date): Promise<string> {
  const ctx = makeCtx(t.db.db, "test", OWNER, null, now ?? t.clock?.now() ?? new Date());
  return t.db.db.transaction().execute((tx) => emit(tx, ctx, type, data));
}

export interface CreatedSubscription {
  id: string;
  secret: string;
  [field: string]: unknown;
}

export async function subscribe(
  t: TestApp,
  adminKey: string,
  body: { url: string; events: string[]; description?: string },
): Promise<CreatedSubscription> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/v1/webhook-subscriptions",
    headers: bearer(adminKey),
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export async function deliveriesOf(t: TestApp, adminKey: string, subscriptionId: string) {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/v1/webhook-subscriptions/${subscriptionId}/deliveries?per_page=100`,
    headers: bearer(adminKey),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as any[];
}

const PUBLIC_TARGET = "https://93.184.215.14/hooks";

/** A subscription created by the owner through the service (a public IP literal: no DNS needed). */
export async function createWebhookSubscription(t: TestApp) {
  const settings = { secretKey: TEST_SECRET_KEY, allowHosts: [], allowHttp: false };
  return createSubscription(t.ownerCtx(), settings, { url: PUBLIC_TARGET, events: ["*"] });
}

/** A pending delivery (of a webhook.test event) to a new subscription; test apps run no worker. */
export async function createWebhookDelivery(t: TestApp): Promise<string> {
  const subscription = await createWebhookSubscription(t);
  const event = await sendTest(t.ownerCtx(), subscription.id);
  const row = await t.db.db
    .selectFrom("webhook_deliveries")
    .select("id")
    .where("event_id", "=", event.id)
    .executeTakeFirstOrThrow();
  return row.id;
}
