// A `cts serve` of its own with email configured, and the real SMTP server it sends to: the suite's
// shared servers run without email (invitations there answer a link to copy), which this keeps.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MailServer, type Received, startMailServer } from "../test/notifications/mail-server.js";
import { call } from "./api.js";
import { closedPort } from "./webhook-receiver.js";

const ROOT = new URL("..", import.meta.url).pathname;

export interface MailService {
  /** `http://127.0.0.1:<port>`: the service's CTS_PUBLIC_URL, so the links in its messages open here. */
  origin: string;
  adminKey: string;
  smtp: MailServer;
  /** The first message to `to` with this subject, once the service's worker has sent it. */
  mailTo: (to: string, subject: string, after?: number) => Promise<Received>;
  stop: () => Promise<void>;
}

async function waitForHealth(origin: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`cts serve exited (${child.exitCode}):\n${log()}`);
    try {
      if ((await fetch(`${origin}/healthz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`cts serve did not answer /healthz within 60 s:\n${log()}`);
}

export async function startMailService(): Promise<MailService> {
  const smtp = await startMailServer();
  const port = await closedPort();
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), "cts-e2e-mail-"));
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    CTS_DATA_DIR: join(dataDir, "data"),
    CTS_HOST: "127.0.0.1",
    CTS_PORT: String(port),
    CTS_LOG_LEVEL: "warn",
    CTS_PUBLIC_URL: origin,
    CTS_SMTP_URL: smtp.url,
    CTS_MAIL_FROM: "Commissions <cts@e2e.example.com>",
  };
  let output = "";
  const server = spawn(process.execPath, ["dist/cli/main.js", "serve"], { cwd: ROOT, env });
  server.stdout!.on("data", (d) => (output += d));
  server.stderr!.on("data", (d) => (output += d));
  const exited = new Promise((r) => server.once("exit", r));
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill("SIGTERM");
      await exited;
    }
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(origin, server, () => output);
    const created = execFileSync(
      process.execPath,
      ["dist/cli/main.js", "keys", "create", "--scope", "admin", "--name", "e2e mail", "--json"],
      { cwd: ROOT, env, encoding: "utf8" },
    );
    const { key } = JSON.parse(created.trim().split("\n").at(-1)!);
    const mailTo = async (to: string, subject: string, after = 0): Promise<Received> => {
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        const found = smtp.received.slice(after).find((m) => m.to.includes(to.toLowerCase()) && m.subject === subject);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no "${subject}" to ${to} within 30 s; received: ${smtp.received.map((m) => m.subject)}`);
    };
    return { origin, adminKey: key, smtp, mailTo, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** A call to the mail service's API with its admin key. */
export const adminOf =
  (service: MailService) =>
  <T = any>(method: string, path: string, body?: unknown): Promise<T> =>
    call<T>(service.origin, method, path, { Authorization: `Bearer ${service.adminKey}` }, body);

/** A POST to a public route as the browser sends it (its Origin): the answer of any status. */
export async function postPublicTo(
  origin: string,
  path: string,
  body: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${origin}/api/v1${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
