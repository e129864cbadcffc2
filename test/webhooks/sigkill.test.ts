import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ctsEnv, fromTemplate, type RunningServer, startServer } from "../cli/spawn.js";
import { type Receiver, startReceiver } from "./support.js";

/**
 * Durability (API.md §6): a committed event is delivered even when the process dies with SIGKILL
 * before or during its delivery. The child always runs embedded (its own data dir), on either run.
 */
const dataDir = fromTemplate(mkdtempSync(join(tmpdir(), "cts-webhooks-kill-")));
const running: RunningServer[] = [];
let receiver: Receiver;
let env: NodeJS.ProcessEnv;
let adminKey = "";
let secret = "";
let subscriptionId = "";

beforeAll(async () => {
  receiver = await startReceiver();
  env = ctsEnv({
    CTS_DATA_DIR: dataDir,
    CTS_ENV: "demo",
    CTS_WEBHOOK_ALLOW_HOSTS: `127.0.0.1:${receiver.port}`,
    CTS_WEBHOOK_ALLOW_HTTP: "1",
  });
});
afterAll(async () => {
  for (const s of running) s.child.kill("SIGKILL");
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(args: string[] = []): Promise<RunningServer> {
  const server = await startServer(env, args);
  running.push(server);
  return server;
}

async function kill(server: RunningServer): Promise<void> {
  server.child.kill("SIGKILL");
  await server.exited;
}

async function call(server: RunningServer, method: string, path: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${server.port}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

function verified(index: number): { id: string } {
  const got = receiver.received[index]!;
  return new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as { id: string };
}

describe("SIGKILL never loses a committed event", () => {
  it("killed before delivery (no worker running): the restarted server delivers it", async () => {
    const server = await start(["--no-worker"]);
    adminKey = /cts_demo_[0-9A-Za-z]{43}/.exec(server.stderr())![0];
    const created = await call(server, "POST", "/webhook-subscriptions", { url: receiver.url, events: ["*"] });
    expect(created.status).toBe(201);
    ({ secret, id: subscriptionId } = created.body);
    expect(statSync(join(dataDir, "secret.key")).mode & 0o777).toBe(0o600);
    const event = await call(server, "POST", `/webhook-subscriptions/${subscriptionId}/test`, {});
    expect(event.status).toBe(202);
    await kill(server);
    expect(receiver.received).toHaveLength(0);

    await start();
    await receiver.waitFor(1, 30_000);
    expect(verified(0).id).toBe(event.body.id);
  }, 120_000);

  it("killed mid-delivery: after restart the event arrives again with the same webhook-id", async () => {
    const server = running.at(-1)!;
    receiver.replies.push("hold");
    const event = await call(server, "POST", `/webhook-subscriptions/${subscriptionId}/test`, {});
    expect(event.status).toBe(202);
    await receiver.waitFor(2, 30_000);
    await kill(server);

    const restarted = await start();
    await receiver.waitFor(3, 30_000);
    expect(receiver.received.slice(1).map((r) => r.headers["webhook-id"])).toEqual([event.body.id, event.body.id]);
    expect(verified(2)).toEqual(event.body);
    const deliveries = await call(restarted, "GET", `/webhook-subscriptions/${subscriptionId}/deliveries`);
    const delivery = deliveries.body.data.find((d: { event_id: string }) => d.event_id === event.body.id);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: [{ response_status: 200 }] });
  }, 120_000);
});
