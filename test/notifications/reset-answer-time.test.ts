import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnswerFloor } from "../../src/auth/index.js";
import { createUser, freshIp } from "../factories.js";
import { createTestApp, type TestApp } from "../harness.js";
import { ORIGIN } from "./deliver.js";

// POST /auth/password-reset answers no sooner than a floor after the request arrived, whether an
// account uses the email or not (docs/notifications.md §4): the floor's clock and timer are the test's,
// so what is held here is what the route waits, never how long anything took.

/** A clock that moves `step` ms each time it is read, and a timer that records what it was asked to wait. */
function testFloor(step: number): AnswerFloor & { waited: number[] } {
  let now = 1_000;
  const waited: number[] = [];
  return {
    ms: 250,
    now: () => (now += step),
    wait: async (ms) => {
      waited.push(ms);
    },
    waited,
  };
}

let floor = testFloor(40);
let t: TestApp;

beforeAll(async () => {
  // The route reads the floor it was built with; each test sets what that floor's methods do.
  const shared: AnswerFloor = {
    ms: 250,
    now: () => floor.now(),
    wait: (ms) => floor.wait(ms),
  };
  t = await createTestApp({ mailOrigin: ORIGIN, resetAnswerFloor: shared });
});
afterAll(async () => {
  await t?.close();
});

const ask = (email: string) =>
  t.app.inject({ method: "POST", url: "/api/v1/auth/password-reset", payload: { email }, remoteAddress: freshIp() });

describe("POST /auth/password-reset: the same time for a known and an unknown email", () => {
  it("both wait out the rest of the 250 ms floor after their work: a reset queued or nothing", async () => {
    floor = testFloor(40);
    const user = await createUser(t, { role: "rep" });
    const known = await ask(user.email);
    const unknown = await ask("nobody-at-all@example.com");
    expect([known.statusCode, unknown.statusCode]).toEqual([202, 202]);
    // Arrival read at 1,040, the work done at 1,080: 40 ms taken, 210 ms waited, on both paths.
    expect(floor.waited).toEqual([210, 210]);
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM password_resets WHERE user_id = ${user.id}`.execute(t.db.db);
    expect(rows).toEqual([{ n: 1 }]);
  });

  it("is a floor, not a delay added: work that took longer than it answers at once", async () => {
    floor = testFloor(300);
    const user = await createUser(t, { role: "rep" });
    expect((await ask(user.email)).statusCode).toBe(202);
    expect((await ask("nobody-either@example.com")).statusCode).toBe(202);
    expect(floor.waited).toEqual([]);
  });

  it("a refused body (422) is not held: it says nothing about any account", async () => {
    floor = testFloor(40);
    const refused = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/password-reset",
      payload: { email: "x" },
      remoteAddress: freshIp(),
    });
    expect(refused.statusCode).toBe(422);
    expect(floor.waited).toEqual([]);
  });
});
