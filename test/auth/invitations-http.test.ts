import type { LightMyRequestResponse } from "fastify";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../src/api-keys/index.js";
import { type BuiltApp, buildApp } from "../../src/app/build.js";
import { makeCtx, OWNER } from "../../src/context.js";
import { DEFAULT_SESSION_SETTINGS, startSession } from "../../src/sessions/index.js";
import { CreateUserBody, createUser as createUserService } from "../../src/users/index.js";
import { errorOf, freshIp, uniqueEmail } from "../factories.js";
import { bearer, openTestDb, TEST_ENV, TestClock, type TestDb } from "../harness.js";
import { tokenOf } from "./invitation-helpers.js";

/**
 * The invitation and password routes over HTTP, with the app's logger captured: no password, token or
 * invitation link may reach a log line, a request-log row, an audit row or a stored response.
 */

const ORIGIN = "https://cts.example.com";
const PASSWORD = "first passphrase of mine";
const NEW_PASSWORD = "second passphrase of mine";
const clock = new TestClock();
const logLines: string[] = [];
let db: TestDb;
let built: BuiltApp;
let admin: string;

beforeAll(async () => {
  db = await openTestDb();
  const logger = pino({ level: "debug" }, { write: (line: string) => logLines.push(line) });
  built = await buildApp({ db: db.db, pglite: db.pglite, env: TEST_ENV, publicUrl: ORIGIN, logger, clock: clock.now });
  admin = (await createKey(makeCtx(db.db, TEST_ENV, OWNER), { name: "admin", scope: "admin" })).key;
});
afterAll(async () => {
  await built.app.close();
  await db.dispose();
});

function send(method: "GET" | "POST", url: string, headers: Record<string, string>, payload?: object) {
  return built.app.inject({
    method,
    url: `/api/v1${url}`,
    headers,
    remoteAddress: freshIp(),
    ...(payload ? { payload } : {}),
  });
}

async function newUser(role: "admin" | "rep" = "admin") {
  const body = CreateUserBody.parse({ name: "Grace Hopper", email: uniqueEmail("grace"), role });
  return createUserService(makeCtx(db.db, TEST_ENV, OWNER, null, clock.now()), body);
}

async function invitationToken(userId: string): Promise<string> {
  const res = await send("POST", `/users/${userId}/invitations`, bearer(admin), {});
  expect(res.statusCode, res.body).toBe(201);
  return tokenOf(res.json().url);
}

/** The session a Set-Cookie hands out, as request headers (cookie + CSRF token for unsafe methods). */
function sessionHeaders(res: LightMyRequestResponse) {
  const cookie = String(res.headers["set-cookie"]).split(";")[0]!;
  const csrf = res.json().csrf_token as string;
  return (method = "GET") => ({ cookie, ...(method === "GET" ? {} : { "x-csrf-token": csrf }) });
}

function expectError(res: LightMyRequestResponse, status: number, code: string, message?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(errorOf(res).code).toBe(code);
  if (message !== undefined) expect(errorOf(res).message).toBe(message);
}

describe("#15 POST /auth/invitations/accept", () => {
  it("needs no key: sets the password and signs in (Session body, Secure cookie that authenticates)", async () => {
    const user = await newUser();
    const token = await invitationToken(user.id);
    const res = await send("POST", "/auth/invitations/accept", {}, { token, password: PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(["csrf_token", "expires_at", "user"]);
    expect(body.user).toEqual(user);
    expect(body.expires_at).toBe(new Date(clock.ms + 480 * 60_000).toISOString());
    expect(res.headers["set-cookie"]).toMatch(
      /^cts_session=[\w-]{43}; Expires=[^;]+; HttpOnly; SameSite=Lax; Path=\/; Secure$/,
    );
    const session = sessionHeaders(res);
    const me = await send("GET", `/users/${user.id}`, session());
    expect(me.statusCode, me.body).toBe(200);

    const again = await send("POST", "/auth/invitations/accept", {}, { token, password: PASSWORD });
    expectError(
      again,
      404,
      "not_found",
      "This invitation was already used; sign in, or ask an admin for a new invitation",
    );
  });

  it("a refused token counts as a failed authentication: the 31st from one IP within a minute → 429", async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await built.app.inject({
        method: "POST",
        url: "/api/v1/auth/invitations/accept",
        remoteAddress: ip,
        payload: { token: `guess-${i}`, password: PASSWORD },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([...Array(30).fill(404), 429]);
    clock.advance(61_000);
  });

  it("#26 a refused token counts even when the password is refused first (422): the 31st → 429", async () => {
    // Each 422 may have cost a strength estimate; a guesser without a token gets 30 a minute, as for 404s.
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await built.app.inject({
        method: "POST",
        url: "/api/v1/auth/invitations/accept",
        remoteAddress: ip,
        payload: { token: `guess-${i}`, password: "qwertyuiopasdfgh" },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([...Array(30).fill(422), 429]);
    clock.advance(61_000);
  });

  it("password rules → 422 naming the field, never echoing the password", async () => {
    const user = await newUser();
    const token = await invitationToken(user.id);
    const res = await send("POST", "/auth/invitations/accept", {}, { token, password: user.email });
    expectError(res, 422, "validation_error");
    expect(errorOf(res).details).toEqual([
      { param: "password", message: "must not contain your email address or the part of it before the @" },
    ]);
    expect(res.body).not.toContain(user.email);
    const unknown = await send("POST", "/auth/invitations/accept", {}, { token: "x".repeat(43), password: PASSWORD });
    expectError(unknown, 404, "not_found");
    const typo = await send("POST", "/auth/invitations/accept", {}, { token, password: PASSWORD, passwd: "x" });
    expectError(typo, 422, "validation_error");
    expect(errorOf(typo).details).toEqual([{ param: "passwd", message: "is not a recognized field" }]);
  });
});

describe("#15 POST /auth/password", () => {
  /** A user with password PASSWORD, signed in twice: `current` (through the accept route) and `other`. */
  async function twoSessions() {
    const user = await newUser();
    const token = await invitationToken(user.id);
    const current = sessionHeaders(await send("POST", "/auth/invitations/accept", {}, { token, password: PASSWORD }));
    const started = await startSession(db.db, user.id, clock.now(), DEFAULT_SESSION_SETTINGS);
    const other = { cookie: `cts_session=${started.token}` };
    return { user, current, other };
  }

  it("204; the user's other sessions get 401 afterwards, this one goes on", async () => {
    const { user, current, other } = await twoSessions();
    expect((await send("GET", `/users/${user.id}`, other)).statusCode).toBe(200);
    const res = await send("POST", "/auth/password", current("POST"), {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe("");
    expectError(await send("GET", `/users/${user.id}`, other), 401, "unauthorized");
    expect((await send("GET", `/users/${user.id}`, current())).statusCode).toBe(200);
  });

  it("a wrong current password → 403 and the session stays valid; bad new password → 422 with details", async () => {
    const { user, current, other } = await twoSessions();
    const wrong = await send("POST", "/auth/password", current("POST"), {
      current_password: "not my password at all",
      new_password: NEW_PASSWORD,
    });
    expectError(wrong, 403, "forbidden", "current_password is wrong; nothing changed");
    expect((await send("GET", `/users/${user.id}`, current())).statusCode).toBe(200);
    expect((await send("GET", `/users/${user.id}`, other)).statusCode).toBe(200);

    const weak = await send("POST", "/auth/password", current("POST"), {
      current_password: PASSWORD,
      new_password: "Qwerty123456",
    });
    expectError(weak, 422, "validation_error");
    expect(errorOf(weak).details).toEqual([
      { param: "new_password", message: "is on the list of commonly used passwords; choose a less predictable one" },
    ]);
    expect((await send("GET", `/users/${user.id}`, other)).statusCode).toBe(200);
  });

  it("an API key → 403 (keys have no password); no credentials → 401", async () => {
    const body = { current_password: PASSWORD, new_password: NEW_PASSWORD };
    expectError(await send("POST", "/auth/password", bearer(admin), body), 403, "forbidden");
    expectError(await send("POST", "/auth/password", {}, body), 401, "unauthorized");
  });
});

describe("#15 secrets of these routes stay out of logs, request logs, audit rows and stored responses", () => {
  it("no password, token or link anywhere", async () => {
    const { user, current, token } = await (async () => {
      const u = await newUser();
      const res = await send("POST", `/users/${u.id}/invitations`, { ...bearer(admin), "idempotency-key": "k-1" }, {});
      const token = tokenOf(res.json().url);
      const accepted = await send("POST", "/auth/invitations/accept", {}, { token, password: PASSWORD });
      return { user: u, current: sessionHeaders(accepted), token };
    })();
    await send("POST", "/auth/password", current("POST"), { current_password: PASSWORD, new_password: NEW_PASSWORD });
    await send("POST", "/auth/password", current("POST"), {
      current_password: "wrong password here",
      new_password: "x",
    });
    await built.requestLog.flush();
    const secrets = [PASSWORD, NEW_PASSWORD, "wrong password here", token];
    const tokens = await db.db.selectFrom("invitations").select("token_hash").where("user_id", "=", user.id).execute();
    expect(tokens).toHaveLength(1);
    const stored = JSON.stringify([
      await db.db.selectFrom("audit_events").selectAll().execute(),
      await db.db.selectFrom("request_logs").selectAll().execute(),
      await db.db.selectFrom("idempotency_keys").selectAll().execute(),
      await db.db.selectFrom("users").selectAll().execute(),
    ]);
    const logs = logLines.join("\n");
    expect(logLines.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      expect(stored).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
    for (const line of logLines) expect(line).not.toMatch(/invite#/);
    expect(stored).not.toMatch(/invite#/);
  });
});
