import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Mailer } from "../../src/notifications/index.js";
import { createUser, freshIp } from "../factories.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { signedInAs } from "../sessions.js";
import { deliverAll, mailerFor, ORIGIN } from "./deliver.js";
import { type MailServer, startMailServer } from "./mail-server.js";

let t: TestApp;
let smtp: MailServer;
let mailer: Mailer;
const clock = new TestClock(Date.now());
const PASSWORD = "violet-harbor-tangent-93";
const ACCEPTED = {
  message: "If an active account uses this email, a link to choose a new password is on its way; it works for 1 hour.",
};

beforeAll(async () => {
  smtp = await startMailServer();
  mailer = await mailerFor(smtp.url);
  t = await createTestApp({ mailOrigin: ORIGIN, clock });
});
afterAll(async () => {
  mailer?.close();
  await t?.close();
  await smtp?.close();
});

const ask = (email: string, ip = freshIp()) =>
  t.app.inject({ method: "POST", url: "/api/v1/auth/password-reset", payload: { email }, remoteAddress: ip });
const confirm = (token: string, password: string, ip = freshIp()) =>
  t.app.inject({
    method: "POST",
    url: "/api/v1/auth/password-reset/confirm",
    payload: { token, password },
    remoteAddress: ip,
  });
const login = (email: string, password: string) =>
  t.app.inject({ method: "POST", url: "/api/v1/auth/login", payload: { email, password }, remoteAddress: freshIp() });

/** The token of the newest reset message to `email`, read from the link in the received mail. */
function tokenIn(email: string): string {
  const mails = smtp.received.filter((m) => m.to.includes(email.toLowerCase()) && m.subject === "Reset your password");
  const link = /https:\/\/cts\.example\.com\/reset-password#([A-Za-z0-9_-]+)/.exec(mails.at(-1)?.text ?? "");
  if (!link) throw new Error(`no reset link mailed to ${email}`);
  return link[1]!;
}

const mailsTo = (email: string) => smtp.received.filter((m) => m.to.includes(email.toLowerCase()));

describe("POST /auth/password-reset and /confirm, end to end through SMTP", () => {
  it("answers the same 202 for a known and an unknown email; only the known one gets a message", async () => {
    const user = await createUser(t, { role: "rep" });
    const known = await ask(user.email.toUpperCase());
    const unknown = await ask("nobody-here@example.com");
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.json()).toEqual(ACCEPTED);
    expect(unknown.json()).toEqual(ACCEPTED);
    expect(Object.keys(known.headers).sort()).toEqual(Object.keys(unknown.headers).sort());
    await deliverAll(t, mailer, clock.now());
    expect(mailsTo("nobody-here@example.com")).toEqual([]);
    const [mail] = mailsTo(user.email);
    expect(mail!.subject).toBe("Reset your password");
    expect(mail!.text).toContain(`Hello ${user.name},`);
    expect(mail!.html).toContain(`href="${ORIGIN}/reset-password#`);
    // Only the SHA-256 is stored; the delivery's sealed copy of the token is erased once sent.
    const token = tokenIn(user.email);
    const { rows } = await sql<{ token_hash: string }>`
      SELECT token_hash FROM password_resets WHERE user_id = ${user.id}`.execute(t.db.db);
    expect(rows.map((r) => r.token_hash)).not.toContain(token);
    const sealed = await sql<{ secret_encrypted: string | null }>`
      SELECT secret_encrypted FROM notification_deliveries WHERE user_id = ${user.id}`.execute(t.db.db);
    expect(sealed.rows).toEqual([{ secret_encrypted: null }]);
  });

  it("the token sets a new password once, signs in, ends other sessions; a second use → 404", async () => {
    const user = await createUser(t, { role: "rep" });
    const earlier = await signedInAs(t, user);
    ok202(await ask(user.email));
    await deliverAll(t, mailer, clock.now());
    const token = tokenIn(user.email);
    const weak = await confirm(token, "short");
    expect(weak.statusCode).toBe(422);
    const done = await confirm(token, PASSWORD);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().user.id).toBe(user.id);
    expect(String(done.headers["set-cookie"])).toContain("cts_session=");
    expect((await login(user.email, PASSWORD)).statusCode).toBe(200);
    const old = await t.app.inject({ method: "GET", url: "/api/v1/auth/session", headers: earlier.headers() });
    expect(old.statusCode).toBe(401);
    const again = await confirm(token, `${PASSWORD}-2`);
    expect(again.statusCode).toBe(404);
    expect(again.json().error.code).toBe("not_found");
    expect(again.json().error.message).toContain("already used");
  });

  it("a link expires after one hour, and a newer link replaces the older", async () => {
    const user = await createUser(t, { role: "rep" });
    ok202(await ask(user.email));
    await deliverAll(t, mailer, clock.now());
    const first = tokenIn(user.email);
    ok202(await ask(user.email));
    await deliverAll(t, mailer, clock.now());
    const second = tokenIn(user.email);
    expect(second).not.toBe(first);
    expect((await confirm(first, PASSWORD)).json().error.message).toContain("already used or replaced");
    clock.advance(3_600_000);
    const late = await confirm(second, PASSWORD);
    expect(late.statusCode).toBe(404);
    expect(late.json().error.message).toContain("expired");
  });

  it("at most 3 messages per email an hour (still 202), and 10 requests per address in 15 minutes, then 429", async () => {
    const user = await createUser(t, { role: "rep" });
    const before = mailsTo(user.email).length;
    for (let i = 0; i < 5; i++) ok202(await ask(user.email));
    await deliverAll(t, mailer, clock.now());
    expect(mailsTo(user.email).length - before).toBe(3);
    const ip = freshIp();
    for (let i = 0; i < 10; i++) ok202(await ask(`someone${i}@example.com`, ip));
    const refused = await ask("someone-else@example.com", ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe("rate_limited");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("an inactive account gets no message; a wrong token → 404", async () => {
    const user = await createUser(t, { role: "rep", active: false });
    ok202(await ask(user.email));
    await deliverAll(t, mailer, clock.now());
    expect(mailsTo(user.email)).toEqual([]);
    const wrong = await confirm("not-a-token", PASSWORD);
    expect(wrong.statusCode).toBe(404);
  });

  it("GET /auth/methods says a reset is offered", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/auth/methods" });
    expect(res.json().password_reset).toBe(true);
  });
});

describe("without email configured", () => {
  it("the same 202, nothing queued, and the sign-in page offers no reset", async () => {
    const plain = await createTestApp();
    try {
      const user = await createUser(plain, { role: "rep" });
      const res = await plain.app.inject({
        method: "POST",
        url: "/api/v1/auth/password-reset",
        payload: { email: user.email },
        remoteAddress: freshIp(),
      });
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual(ACCEPTED);
      const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM password_resets`.execute(plain.db.db);
      expect(Number(rows[0]!.n)).toBe(0);
      const methods = await plain.app.inject({ method: "GET", url: "/api/v1/auth/methods" });
      expect(methods.json().password_reset).toBe(false);
    } finally {
      await plain.close();
    }
  });
});

function ok202(res: { statusCode: number; body: string }) {
  expect(res.statusCode, res.body).toBe(202);
}
