import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword, verifications } from "../../src/passwords/index.js";
import { errorOf, freshIp, uniqueEmail } from "../factories.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { signedInAs } from "../sessions.js";

/**
 * #26: a wrong `current_password` of `POST /auth/password` counts as a failed password check of the
 * person's email, in the same log as failed sign-ins (API.md §11: more than 10 in 15 minutes → 429).
 */
const PASSWORD = "Lantern-Orchard-Quietly-48";
const NEXT = "Copper-Meadow-Whistle-93";
const MINUTE = 60_000;
const TOO_MANY_CHANGES =
  "Too many wrong passwords for this account (more than 10 in 15 minutes, sign-ins included); retry later";
const TOO_MANY_SIGN_INS = "Too many failed sign-ins for this email (more than 10 in 15 minutes); retry later";

let t: TestApp;
let clock: TestClock;
let hash: string;

beforeAll(async () => {
  clock = new TestClock();
  t = await createTestApp({ clock });
  hash = await hashPassword(PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

/** A person with PASSWORD, signed in. */
async function person() {
  const session = await signedInAs(t, { email: uniqueEmail("throttle") });
  await t.db.db.updateTable("users").set({ password_hash: hash }).where("id", "=", session.user.id).execute();
  return session;
}

type Session = Awaited<ReturnType<typeof person>>;

function change(s: Session, current: string, next = NEXT) {
  return t.app.inject({
    method: "POST",
    url: "/api/v1/auth/password",
    headers: s.headers("POST"),
    payload: { current_password: current, new_password: next },
    remoteAddress: freshIp(),
  });
}

function login(email: string, password: string) {
  return t.app.inject({
    method: "POST",
    url: "/api/v1/auth/login",
    payload: { email, password },
    remoteAddress: freshIp(),
  });
}

describe("#26 wrong current passwords count with the email's failed sign-ins", () => {
  it("25 wrong current passwords: 10 × 403, then 429 with Retry-After; the right one is then not even verified", async () => {
    const s = await person();
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      if (i === 4) clock.advance(MINUTE);
      statuses.push((await change(s, `wrong guess ${i}`)).statusCode);
    }
    expect(statuses).toEqual([...Array(10).fill(403), ...Array(15).fill(429)]);
    const before = verifications.count;
    const refused = await change(s, PASSWORD);
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused)).toMatchObject({ code: "rate_limited", message: TOO_MANY_CHANGES });
    expect(refused.headers["retry-after"]).toBe(String(14 * 60));
    // The sign-in of that email is limited as well, and verifies nothing either.
    const signIn = await login(s.user.email.toUpperCase(), PASSWORD);
    expect([signIn.statusCode, errorOf(signIn).message, signIn.headers["retry-after"]]).toEqual([
      429,
      TOO_MANY_SIGN_INS,
      String(14 * 60),
    ]);
    expect(verifications.count).toBe(before);
    const stored = await t.db.db.selectFrom("users").select("password_hash").where("id", "=", s.user.id).execute();
    expect(stored).toEqual([{ password_hash: hash }]);
    clock.advance(14 * MINUTE); // the first four failures leave the window
    expect((await change(s, PASSWORD)).statusCode).toBe(204);
  });

  it("failed sign-ins and wrong current passwords share the 10: 6 + 4, then both are refused", async () => {
    const s = await person();
    for (let i = 0; i < 6; i++) expect((await login(s.user.email, `wrong ${i}`)).statusCode).toBe(401);
    for (let i = 0; i < 4; i++) expect((await change(s, `wrong ${i}`)).statusCode).toBe(403);
    expect((await change(s, PASSWORD)).statusCode).toBe(429);
    expect((await login(s.user.email, PASSWORD)).statusCode).toBe(429);
  });

  it("a right current password never counts, whatever the new password's fate (204 or 422)", async () => {
    const s = await person();
    for (let i = 0; i < 9; i++) expect((await change(s, `wrong ${i}`)).statusCode).toBe(403);
    expect((await change(s, PASSWORD, "short")).statusCode).toBe(422);
    expect((await change(s, PASSWORD)).statusCode).toBe(204);
    expect((await login(s.user.email, NEXT)).statusCode).toBe(200);
    expect((await change(s, "wrong again", PASSWORD)).statusCode).toBe(403);
    expect((await change(s, NEXT, PASSWORD)).statusCode).toBe(429);
  });
});
