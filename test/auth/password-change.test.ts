import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptInvitation, changePassword, createInvitation } from "../../src/auth/index.js";
import { makeCtx } from "../../src/context.js";
import { AppError } from "../../src/errors.js";
import { verifyPassword } from "../../src/passwords/index.js";
import { MemoryStore } from "../../src/rate-limit/stores.js";
import { DEFAULT_SESSION_SETTINGS, resumeSession, sha256Hex, startSession } from "../../src/sessions/index.js";
import type { User } from "../../src/users/index.js";
import { createUser } from "../factories.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { anonymousCtx, recordingReply, tokenOf, userCtx } from "./invitation-helpers.js";

const OLD = "the old passphrase 1";
const NEW = "a brand new passphrase 2";
const clock = new TestClock();
/** Where wrong current passwords are counted (the app's store, in the routes). */
const failures = new MemoryStore();
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(async () => {
  await t.close();
});

/** A user with password OLD, signed in on two devices. */
async function signedInTwice(): Promise<{ user: User; current: { sessionId: string; token: string }; other: string }> {
  const user = await createUser(t);
  const { url } = await createInvitation(t.ownerCtx(), user.id, "http://x");
  await acceptInvitation(
    anonymousCtx(t),
    recordingReply().reply,
    { token: tokenOf(url), password: OLD },
    {
      settings: DEFAULT_SESSION_SETTINGS,
      secure: false,
    },
  );
  const current = await startSession(t.db.db, user.id, clock.now(), DEFAULT_SESSION_SETTINGS);
  const other = await startSession(t.db.db, user.id, clock.now(), DEFAULT_SESSION_SETTINGS);
  return { user, current, other: other.token };
}

const alive = async (token: string) =>
  (await resumeSession(t.db.db, token, clock.now(), DEFAULT_SESSION_SETTINGS)) !== undefined;

async function refusalOf(promise: Promise<unknown>) {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  const { status, code, message, details } = err as AppError;
  return { status, code, message, details };
}

async function storedHash(userId: string) {
  const row = await t.db.db.selectFrom("users").select("password_hash").where("id", "=", userId).executeTakeFirst();
  return row!.password_hash;
}

describe("#15 changing a password (service level)", () => {
  it("stores the new hash, ends the user's other sessions, keeps this one, audits without a password", async () => {
    const { user, current, other } = await signedInTwice();
    const bystander = await signedInTwice();
    await changePassword(userCtx(t, user, current.sessionId), { current_password: OLD, new_password: NEW }, failures);
    const hash = await storedHash(user.id);
    expect(await verifyPassword(hash, NEW)).toBe(true);
    expect(await verifyPassword(hash, OLD)).toBe(false);
    expect(await alive(current.token)).toBe(true);
    expect(await alive(other)).toBe(false);
    expect(await alive(bystander.other)).toBe(true);
    const ended = await t.db.db
      .selectFrom("sessions")
      .select(["ended_reason"])
      .where("token_hash", "=", sha256Hex(other))
      .executeTakeFirstOrThrow();
    expect(ended.ended_reason).toBe("password_change");
    const audits = await t.db.db
      .selectFrom("audit_events")
      .selectAll()
      .where("action", "=", "user.password_change")
      .where("resource_id", "=", user.id)
      .execute();
    expect(audits.map((a) => [a.actor_type, a.actor_id, a.after])).toEqual([
      // `other` and the session the invitation's acceptance started.
      ["user", user.id, { other_sessions_ended: 2 }],
    ]);
    expect(JSON.stringify(audits)).not.toContain(NEW);
    expect(JSON.stringify(audits)).not.toContain(OLD);
  });

  it("a wrong current password → 403, nothing changes, no session ends", async () => {
    const { user, current, other } = await signedInTwice();
    const hash = await storedHash(user.id);
    expect(
      await refusalOf(
        changePassword(
          userCtx(t, user, current.sessionId),
          {
            current_password: "not the password",
            new_password: NEW,
          },
          failures,
        ),
      ),
    ).toEqual({
      status: 403,
      code: "forbidden",
      message: "current_password is wrong; nothing changed",
      details: undefined,
    });
    expect(await storedHash(user.id)).toBe(hash);
    expect([await alive(current.token), await alive(other)]).toEqual([true, true]);
  });

  it("a new password breaking the rules → 422 with details under new_password", async () => {
    const { user, current, other } = await signedInTwice();
    const ctx = userCtx(t, user, current.sessionId);
    expect(
      await refusalOf(changePassword(ctx, { current_password: OLD, new_password: "Xk7#q" }, failures)),
    ).toMatchObject({
      status: 422,
      code: "validation_error",
      details: [{ param: "new_password", message: "must have at least 12 characters" }],
    });
    expect(
      await refusalOf(changePassword(ctx, { current_password: OLD, new_password: `${user.email}!` }, failures)),
    ).toMatchObject({
      status: 422,
      details: [
        { param: "new_password", message: "must not contain your email address or the part of it before the @" },
      ],
    });
    expect(
      await refusalOf(changePassword(ctx, { current_password: OLD, new_password: "QWERTY123456" }, failures)),
    ).toMatchObject({
      status: 422,
      details: [
        {
          param: "new_password",
          message: "is on the list of commonly used passwords; choose a less predictable one",
        },
      ],
    });
    expect(await verifyPassword(await storedHash(user.id), OLD)).toBe(true);
    expect(await alive(other)).toBe(true);
  });

  it("an API key or the owner → 403: they have no password", async () => {
    const key = makeCtx(t.db.db, "test", {
      type: "api_key",
      keyId: "key_1",
      name: "k",
      scope: "admin",
      mcpAccess: "read",
    });
    const expected = {
      status: 403,
      code: "forbidden",
      message: "Changing a password needs a signed-in session (cookie); API keys and the owner have no password",
      details: undefined,
    };
    expect(await refusalOf(changePassword(key, { current_password: OLD, new_password: NEW }, failures))).toEqual(
      expected,
    );
    expect(
      await refusalOf(changePassword(t.ownerCtx(), { current_password: OLD, new_password: NEW }, failures)),
    ).toEqual(expected);
  });
});
