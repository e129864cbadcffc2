import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptInvitation, createInvitation } from "../../src/auth/index.js";
import { AppError } from "../../src/errors.js";
import { verifyPassword } from "../../src/passwords/index.js";
import { DEFAULT_SESSION_SETTINGS, resumeSession, startSession } from "../../src/sessions/index.js";
import { updateUser } from "../../src/users/index.js";
import { createUser, errorOf, unknownId } from "../factories.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { anonymousCtx, invite, recordingReply, tokenOf } from "./invitation-helpers.js";

const ORIGIN = "https://cts.example.com";
const PASSWORD = "correct horse battery staple";
const HOUR = 3_600_000;
const clock = new TestClock();
let t: TestApp;
let admin: string;

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const how = { settings: DEFAULT_SESSION_SETTINGS, secure: true };

beforeAll(async () => {
  t = await createTestApp({ clock, publicUrl: ORIGIN });
  admin = (await t.key("admin")).key;
});
afterAll(async () => {
  await t.close();
});

async function accept(token: string, password = PASSWORD) {
  const { reply, headers } = recordingReply();
  const session = await acceptInvitation({ ...anonymousCtx(t), now: clock.now() }, reply, { token, password }, how);
  return { session, headers };
}

async function refusalOf(promise: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  const { status, code, message } = err as AppError;
  return { status, code, message };
}

async function invitationRows(userId: string) {
  return t.db.db.selectFrom("invitations").selectAll().where("user_id", "=", userId).orderBy("id").execute();
}

describe("#15 POST /users/{id}/invitations", () => {
  it("201 with the one-time URL; only the token's SHA-256 is stored; the audit row holds neither", async () => {
    const user = await createUser(t);
    const res = await invite(t, admin, user.id);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(["expires_at", "id", "url", "user_id"]);
    expect(body.id).toMatch(/^inv_[0-9A-Z]{26}$/);
    expect(body.user_id).toBe(user.id);
    expect(body.expires_at).toBe(new Date(clock.ms + 72 * HOUR).toISOString());
    expect(body.url).toMatch(/^https:\/\/cts\.example\.com\/invite#[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(body.url);

    const rows = await invitationRows(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(sha256(token));
    expect(JSON.stringify(rows)).not.toContain(token);

    const audits = await t.db.db.selectFrom("audit_events").selectAll().where("resource_id", "=", user.id).execute();
    const created = audits.filter((a) => a.action === "invitation.create");
    expect(created).toHaveLength(1);
    expect(created[0]!.actor_type).toBe("api_key");
    expect(created[0]!.after).toEqual({
      invitation_id: body.id,
      expires_at: body.expires_at,
      cancelled_invitation_ids: [],
    });
    expect(JSON.stringify(audits)).not.toContain(token);
  });

  it("unknown user → 404; inactive user → 409 conflict; a read key → 403", async () => {
    const missing = unknownId("usr");
    const notFound = await invite(t, admin, missing);
    expect([notFound.statusCode, errorOf(notFound).code, errorOf(notFound).message]).toEqual([
      404,
      "not_found",
      `User ${missing} not found`,
    ]);

    const inactive = await createUser(t, { active: false });
    const conflict = await invite(t, admin, inactive.id);
    expect([conflict.statusCode, errorOf(conflict).code, errorOf(conflict).message]).toEqual([
      409,
      "conflict",
      `User ${inactive.id} is inactive; an admin must set "active": true before they can be invited`,
    ]);
    expect(await invitationRows(inactive.id)).toEqual([]);

    const reader = (await t.key("read")).key;
    const forbidden = await invite(t, reader, (await createUser(t)).id);
    expect([forbidden.statusCode, errorOf(forbidden).code]).toEqual([403, "forbidden"]);
  });

  it("an Idempotency-Key replay never repeats or stores the link: 409 conflict", async () => {
    const user = await createUser(t);
    const first = await invite(t, admin, user.id, { "idempotency-key": "invite-1" });
    expect(first.statusCode).toBe(201);
    const token = tokenOf(first.json().url);
    const replay = await invite(t, admin, user.id, { "idempotency-key": "invite-1" });
    expect([replay.statusCode, errorOf(replay).code, errorOf(replay).message]).toEqual([
      409,
      "conflict",
      "The request with Idempotency-Key invite-1 already issued its secret, which is shown only once",
    ]);
    const stored = await t.db.db.selectFrom("idempotency_keys").selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(await invitationRows(user.id)).toHaveLength(1);
  });

  it("a newer invitation cancels the older open one, whose token is then refused", async () => {
    const user = await createUser(t);
    const older = await createInvitation(t.ownerCtx(), user.id, ORIGIN);
    const newer = await createInvitation(t.ownerCtx(), user.id, ORIGIN);
    const rows = await invitationRows(user.id);
    expect(rows.map((r) => [r.id, r.cancelled_at !== null])).toEqual([
      [older.id, true],
      [newer.id, false],
    ]);
    expect(await refusalOf(accept(tokenOf(older.url)))).toEqual({
      status: 404,
      code: "not_found",
      message: "This invitation was replaced by a newer one; use the latest invitation link",
    });
    const { session } = await accept(tokenOf(newer.url));
    expect(session.user.id).toBe(user.id);
  });
});

describe("#15 accepting an invitation (service level)", () => {
  it("sets the argon2id password, signs in (cookie, CSRF token, expiry) and audits without the password", async () => {
    const user = await createUser(t);
    const before = await startSession(t.db.db, user.id, clock.now(), DEFAULT_SESSION_SETTINGS);
    const { url, id } = await createInvitation(t.ownerCtx(), user.id, ORIGIN);
    const { session, headers } = await accept(tokenOf(url));

    expect(session.user).toEqual(user);
    expect(session.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.expires_at).toBe(new Date(clock.ms + 480 * 60_000).toISOString());
    expect(headers["set-cookie"]).toMatch(
      /^cts_session=[A-Za-z0-9_-]{43}; Expires=[^;]+; HttpOnly; SameSite=Lax; Path=\/; Secure$/,
    );
    const cookieToken = headers["set-cookie"]!.split(";")[0]!.split("=")[1]!;
    expect(await resumeSession(t.db.db, cookieToken, clock.now(), DEFAULT_SESSION_SETTINGS)).toMatchObject({
      actor: { type: "user", userId: user.id },
    });
    // A password reset locks out whoever held a session before it.
    expect(await resumeSession(t.db.db, before.token, clock.now(), DEFAULT_SESSION_SETTINGS)).toBeUndefined();

    const row = await t.db.db
      .selectFrom("users")
      .select(["password_hash", "password_changed_at"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(new Date(row.password_changed_at as unknown as Date).toISOString()).toBe(clock.now().toISOString());
    expect(await verifyPassword(row.password_hash, PASSWORD)).toBe(true);

    const invitation = (await invitationRows(user.id))[0]!;
    expect(new Date(invitation.used_at!).toISOString()).toBe(clock.now().toISOString());

    const audits = await t.db.db
      .selectFrom("audit_events")
      .selectAll()
      .where("resource_id", "=", user.id)
      .orderBy("id")
      .execute();
    expect(audits.map((a) => [a.action, a.actor_type, a.actor_id])).toEqual([
      ["user.create", "owner", null],
      ["invitation.create", "owner", null],
      ["invitation.accept", "user", user.id],
      ["session.login", "user", user.id],
    ]);
    expect(audits[2]!.after).toEqual({ invitation_id: id, sessions_ended: 1 });
    expect(JSON.stringify(audits)).not.toContain(PASSWORD);
    expect(JSON.stringify(audits)).not.toContain(tokenOf(url));
  });

  it("a token works once: the second accept is refused and changes nothing", async () => {
    const user = await createUser(t);
    const { url } = await createInvitation(t.ownerCtx(), user.id, ORIGIN);
    await accept(tokenOf(url));
    const hash = await t.db.db.selectFrom("users").select("password_hash").where("id", "=", user.id).executeTakeFirst();
    expect(await refusalOf(accept(tokenOf(url), "another good passphrase"))).toEqual({
      status: 404,
      code: "not_found",
      message: "This invitation was already used; sign in, or ask an admin for a new invitation",
    });
    expect(
      await t.db.db.selectFrom("users").select("password_hash").where("id", "=", user.id).executeTakeFirst(),
    ).toEqual(hash);
  });

  it("expires 72 hours after it was issued", async () => {
    const user = await createUser(t);
    const issuedAt = clock.ms;
    const first = await createInvitation(t.ownerCtx(), user.id, ORIGIN);
    clock.advance(72 * HOUR);
    expect(await refusalOf(accept(tokenOf(first.url)))).toEqual({
      status: 404,
      code: "not_found",
      message: `This invitation expired at ${new Date(issuedAt + 72 * HOUR).toISOString()}; ask an admin for a new invitation`,
    });
    const second = await createInvitation({ ...t.ownerCtx(), now: clock.now() }, user.id, ORIGIN);
    clock.advance(72 * HOUR - 1);
    expect((await accept(tokenOf(second.url))).session.user.id).toBe(user.id);
  });

  it("an unknown token → 404", async () => {
    expect(await refusalOf(accept("A".repeat(43)))).toEqual({
      status: 404,
      code: "not_found",
      message: "Invitation not found: the link is wrong or incomplete; ask an admin for a new invitation",
    });
  });

  it("password rules → 422 with details (judged against the invited email); the invitation stays usable", async () => {
    const user = await createUser(t, { email: `jordan.${Date.now()}@example.com` });
    const { url } = await createInvitation(t.ownerCtx(), user.id, ORIGIN);
    const err = await acceptInvitation(
      { ...anonymousCtx(t), now: clock.now() },
      recordingReply().reply,
      { token: tokenOf(url), password: user.email.toUpperCase() },
      how,
    ).catch((e: AppError) => e);
    expect(err).toBeInstanceOf(AppError);
    expect([(err as AppError).code, (err as AppError).details]).toEqual([
      "validation_error",
      [{ param: "password", message: "must not contain your email address or the part of it before the @" }],
    ]);
    expect(await refusalOf(accept(tokenOf(url), "qwerty123456"))).toMatchObject({ status: 422 });
    expect(await refusalOf(accept(tokenOf(url), "short"))).toMatchObject({ status: 422 });
    expect((await invitationRows(user.id))[0]!.used_at).toBeNull();
    expect((await accept(tokenOf(url))).session.user.id).toBe(user.id);
  });

  it("a user deactivated after the invitation → 409; nothing is consumed", async () => {
    const user = await createUser(t);
    const { url } = await createInvitation(t.ownerCtx(), user.id, ORIGIN);
    await updateUser(t.ownerCtx(), user.id, { active: false });
    expect(await refusalOf(accept(tokenOf(url)))).toEqual({
      status: 409,
      code: "conflict",
      message: `User ${user.id} is inactive; an admin must reactivate them before this invitation can be used`,
    });
    const rows = await invitationRows(user.id);
    expect(rows[0]!.used_at).toBeNull();
  });
});
