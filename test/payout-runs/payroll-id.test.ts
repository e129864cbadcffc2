import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { User } from "../../src/users/index.js";
import { createUser, errorOf } from "../factories.js";
import { Api, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { signedInAs } from "../sessions.js";

/** Users' payroll_id (API.md §13): ≤ 64 characters or null, unique (409); write keys, people admin or finance. */

let t: TestApp;
let writer: Api;
beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  writer = new Api(t, "write");
});
afterAll(() => t.close());

describe("payroll_id", () => {
  it("a write key sets it on create and update; null clears it; every user response carries it", async () => {
    const created = ok<User>(
      await writer.post("/users", { name: "Pat Lee", email: "pat@example.com", payroll_id: "P-1" }),
      201,
    );
    expect(created.payroll_id).toBe("P-1");
    expect(ok<User>(await writer.patch(`/users/${created.id}`, { payroll_id: null })).payroll_id).toBeNull();
    expect(ok<User>(await writer.get(`/users/${created.id}`)).payroll_id).toBeNull();
  });

  it("unique → 409 conflict naming it; over 64 characters → 422", async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    ok(await writer.patch(`/users/${a.id}`, { payroll_id: "004211" }));
    const taken = await writer.patch(`/users/${b.id}`, { payroll_id: "004211" });
    expect([taken.statusCode, errorOf(taken).code, errorOf(taken).message]).toEqual([
      409,
      "conflict",
      "A user with payroll_id 004211 already exists",
    ]);
    const long = await writer.patch(`/users/${b.id}`, { payroll_id: "x".repeat(65) });
    expect([long.statusCode, errorOf(long).details?.[0]?.param]).toEqual([422, "payroll_id"]);
  });

  it("people: finance changes payroll_id and nothing else (403 naming admin); reps are refused", async () => {
    const finance = await signedInAs(t, { role: "finance" });
    const target = await createUser(t);
    const patch = (headers: Record<string, string>, payload: Record<string, unknown>) =>
      t.app.inject({ method: "PATCH", url: `/api/v1/users/${target.id}`, headers, payload });
    const set = await patch(finance.headers("PATCH"), { payroll_id: "F-77" });
    expect([set.statusCode, set.json().payroll_id]).toEqual([200, "F-77"]);
    // Sending a field's current value is not a change.
    const same = await patch(finance.headers("PATCH"), { payroll_id: "F-78", name: target.name });
    expect(same.statusCode).toBe(200);
    const other = await patch(finance.headers("PATCH"), { payroll_id: "F-79", name: "Renamed" });
    expect([other.statusCode, errorOf(other).message]).toEqual([
      403,
      "This action needs the admin role; you are finance",
    ]);
    expect(ok<User>(await writer.get(`/users/${target.id}`))).toMatchObject({ payroll_id: "F-78", name: target.name });
    // A rep, even on their own record (anyone else's they do not see: 404).
    const rep = await signedInAs(t, { role: "rep" });
    const refused = await t.app.inject({
      method: "PATCH",
      url: `/api/v1/users/${rep.user.id}`,
      headers: rep.headers("PATCH"),
      payload: { payroll_id: "R-1" },
    });
    expect([refused.statusCode, errorOf(refused).message]).toEqual([
      403,
      "This action needs the admin or finance role; you are rep",
    ]);
  });
});
