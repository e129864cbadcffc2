import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ctsEnv, type RunningServer, startServer } from "../cli/spawn.js";
import { type MailServer, startMailServer } from "./mail-server.js";

/**
 * A `cts serve` killed with SIGKILL right after a deal's approval committed (before its reply, before any
 * message could leave) still sends the approval exactly once after a restart, and a further kill and
 * restart after the send does not send it again. Both databases: a data dir, or with TEST_DATABASE_URL a
 * PostgreSQL database of the test's own.
 */
const PG_URL = process.env.TEST_DATABASE_URL;
const dbName = `cts_mailkill_${randomBytes(4).toString("hex")}`;
const dataDir = mkdtempSync(join(tmpdir(), "cts-mail-kill-"));
const ORIGIN = "https://cts.example.com";
const running: RunningServer[] = [];
let smtp: MailServer;
let env: NodeJS.ProcessEnv;
let key = "";

function pgUrl(name: string): string {
  const url = new URL(PG_URL!);
  url.pathname = `/${name}`;
  return url.href;
}

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function call(server: RunningServer, method: string, path: string, body?: unknown, extra = {}) {
  const res = await fetch(`http://127.0.0.1:${server.port}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}), ...extra },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function start(extra: Record<string, string> = {}, args: string[] = []): Promise<RunningServer> {
  const server = await startServer({ ...env, ...extra }, args);
  running.push(server);
  return server;
}

beforeAll(async () => {
  smtp = await startMailServer();
  if (PG_URL) await admin(`CREATE DATABASE ${dbName}`);
  const mail = { CTS_SMTP_URL: smtp.url, CTS_MAIL_FROM: "cts@example.com", CTS_PUBLIC_URL: ORIGIN };
  env = PG_URL
    ? ctsEnv({
        DATABASE_URL: pgUrl(dbName),
        CTS_SECRET_KEY: randomBytes(32).toString("base64"),
        CTS_ENV: "demo",
        ...mail,
      })
    : ctsEnv({ CTS_DATA_DIR: dataDir, CTS_ENV: "demo", ...mail });
}, 60_000);

afterAll(async () => {
  for (const s of running) s.child.kill("SIGKILL");
  await Promise.all(running.map((s) => s.exited));
  if (PG_URL) await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  rmSync(dataDir, { recursive: true, force: true });
  await smtp?.close();
});

describe("a SIGKILL between commit and send", () => {
  it("still delivers the message exactly once after restarts", async () => {
    // No worker in the first process: nothing can be sent before the kill, whatever the timing.
    const first = await start({ CTS_TEST_CRASH_AFTER_COMMIT: "1" }, ["--no-worker"]);
    key = /cts_demo_[0-9A-Za-z]{43}/.exec(first.stderr())![0];
    const user = await call(first, "POST", "/users", { name: "Kim Rep", email: "kim@example.com", role: "rep" });
    expect(user.status).toBe(201);
    const plan = await call(first, "POST", "/comp-plans", {
      name: "Kill plan",
      period: "quarter",
      effective_from: "2026-01-01",
      quota: 100000,
      tiers: [{ from_attainment: 0, rate: 0.1 }],
    });
    expect(plan.status).toBe(201);
    const assigned = await call(first, "POST", `/comp-plans/${plan.body.id}/assignments`, {
      user_id: user.body.id,
      effective_from: "2026-01-01",
    });
    expect(assigned.status).toBe(201);
    const deal = await call(first, "POST", "/deals", {
      opportunity_name: "Killed approval",
      arr_amount: 10000,
      close_date: "2026-07-15",
      owner_id: user.body.id,
    });
    expect(deal.status).toBe(201);
    // The idempotent approval commits, then the process kills itself before replying.
    const approve = await fetch(`http://127.0.0.1:${first.port}/api/v1/deals/${deal.body.id}/approve`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "idempotency-key": "kill-approve-1" },
    }).catch(() => undefined);
    expect(approve).toBeUndefined();
    await first.exited;
    expect(smtp.received).toEqual([]);

    const second = await start();
    const status = await call(second, "GET", `/deals/${deal.body.id}`);
    expect(status.body.status).toBe("approved");
    // The assignment asked Kim to acknowledge the plan by email too (queued with it, before the kill).
    const approvals = () => smtp.received.filter((m) => m.subject.startsWith("Deal approved"));
    await expect
      .poll(() => approvals().filter((m) => m.to.includes("kim@example.com")).length, { timeout: 30_000 })
      .toBe(1);
    const [mail] = approvals();
    expect(mail!.subject).toBe("Deal approved: Killed approval");
    expect(mail!.text).toContain(`${ORIGIN}/deals/${deal.body.id}`);
    // Both messages marked sent before the second kill (a kill between a send and its mark could send
    // that one again: SMTP is not part of the transaction; the kill this test is about is the first).
    await expect
      .poll(
        async () =>
          (await call(second, "GET", "/notifications/deliveries")).body.data
            ?.map((d: { kind: string; status: string }) => `${d.kind} ${d.status}`)
            .sort(),
        { timeout: 30_000 },
      )
      .toEqual(["deal_approved sent", "plan_acknowledgement sent"]);
    second.child.kill("SIGKILL");
    await second.exited;

    const third = await start();
    // Several polls of the worker (every 500 ms): nothing is sent again.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const log = await call(third, "GET", "/notifications/deliveries");
    expect(log.body.data.map((d: { kind: string; status: string }) => [d.kind, d.status]).sort()).toEqual([
      ["deal_approved", "sent"],
      ["plan_acknowledgement", "sent"],
    ]);
    expect(smtp.received.map((m) => m.subject).sort()).toEqual([
      "Deal approved: Killed approval",
      "Please read and acknowledge your plan: Kill plan",
    ]);
    const text = third.stdout() + third.stderr() + second.stdout() + second.stderr();
    expect(text).not.toContain("s3cret-pass");
  }, 180_000);
});
