import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltApp, buildApp } from "../../src/app/build.js";
import { hashPassword } from "../../src/passwords/index.js";
import { createUser, uniqueEmail } from "../factories.js";
import { createTestApp, TEST_ENV, type TestApp, TestClock } from "../harness.js";

// buildApp({sessions}) (CTS_SESSION_IDLE_MINUTES / CTS_SESSION_MAX_HOURS) decides both timeouts.
const SETTINGS = { idleMinutes: 5, maxHours: 1 };
const MINUTE = 60_000;

let t: TestApp;
let clock: TestClock;
let app: BuiltApp["app"];

beforeAll(async () => {
  clock = new TestClock();
  t = await createTestApp({ clock });
  app = (await buildApp({ db: t.db.db, env: TEST_ENV, clock: clock.now, sessions: SETTINGS })).app;
});

afterAll(async () => {
  await app?.close();
  await t?.close();
});

describe("configured session timeouts", () => {
  it("sign-in answers and sets them; idle and absolute timeouts follow them", async () => {
    const user = await createUser(t, { email: uniqueEmail() });
    const password = "a long enough password";
    await t.db.db
      .updateTable("users")
      .set({ password_hash: await hashPassword(password) })
      .where("id", "=", user.id)
      .execute();
    const signIn = () =>
      app.inject({ method: "POST", url: "/api/v1/auth/login", payload: { email: user.email, password } });
    const res = await signIn();
    expect(res.statusCode).toBe(200);
    expect(res.json().expires_at).toBe(new Date(clock.ms + 5 * MINUTE).toISOString());
    expect(res.headers["set-cookie"]).toContain(`Expires=${new Date(clock.ms + 60 * MINUTE).toUTCString()};`);
    const cookie = (res.headers["set-cookie"] as string).split(";")[0]!;
    const session = () => app.inject({ method: "GET", url: "/api/v1/auth/session", headers: { cookie } });
    clock.advance(4 * MINUTE);
    expect((await session()).statusCode).toBe(200);
    clock.advance(5 * MINUTE);
    expect((await session()).statusCode).toBe(401);

    const busy = (await signIn()).headers["set-cookie"] as string;
    const busyCookie = { cookie: busy.split(";")[0]! };
    for (let i = 0; i < 14; i++) {
      clock.advance(4 * MINUTE);
      const ok = await app.inject({ method: "GET", url: "/api/v1/auth/session", headers: busyCookie });
      expect(ok.statusCode, `at ${(i + 1) * 4} min`).toBe(200);
    }
    clock.advance(4 * MINUTE); // 60 minutes after sign-in
    const ended = await app.inject({ method: "GET", url: "/api/v1/auth/session", headers: busyCookie });
    expect(ended.statusCode).toBe(401);
  });
});
