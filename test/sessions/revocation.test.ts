import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltApp, buildApp } from "../../src/app/build.js";
import { type Database, openDatabase } from "../../src/db/connect.js";
import { createApiKey, errorOf, unknownId } from "../factories.js";
import { bearer, createTestApp, POSTGRES_URL, TEST_ENV, type TestApp, TestClock } from "../harness.js";
import { type SignedInSession, signedInAs } from "../sessions.js";

const ORIGIN = "http://cts.test";

let t: TestApp;
let clock: TestClock;
let adminKey: string;
/** A second process's app on the same database: on PostgreSQL its own pool, on PGlite the one instance. */
let other: BuiltApp;
let otherDb: Database | undefined;

beforeAll(async () => {
  clock = new TestClock();
  t = await createTestApp({ clock, publicUrl: ORIGIN });
  adminKey = (await createApiKey(t, "admin")).key;
  let db = t.db.db;
  if (POSTGRES_URL) {
    const schema = (await sql<{ s: string }>`SELECT current_schema() AS s`.execute(t.db.db)).rows[0]!.s;
    otherDb = await openDatabase({ url: POSTGRES_URL, schema, poolSize: 2 });
    db = otherDb.db;
  }
  other = await buildApp({ db, env: TEST_ENV, publicUrl: ORIGIN, clock: clock.now });
});

afterAll(async () => {
  await other?.app.close();
  await otherDb?.close();
  await t?.close();
});

const whoAmI = (app: BuiltApp["app"], s: SignedInSession) =>
  app.inject({ method: "GET", url: "/api/v1/auth/session", headers: s.headers("GET") });

async function expectSignedIn(s: SignedInSession, yes: boolean) {
  for (const app of [t.app, other.app]) {
    const res = await whoAmI(app, s);
    expect(res.statusCode, res.body).toBe(yes ? 200 : 401);
  }
}

function patchUser(id: string, body: Record<string, unknown>) {
  return t.app.inject({ method: "PATCH", url: `/api/v1/users/${id}`, headers: bearer(adminKey), payload: body });
}

async function endedReasons(userId: string) {
  const rows = await t.db.db.selectFrom("sessions").select("ended_reason").where("user_id", "=", userId).execute();
  return rows.map((r) => r.ended_reason);
}

describe("revocation, effective on the next request in every process", () => {
  it("deactivating a user ends all their sessions; reactivating does not bring them back", async () => {
    const a = await signedInAs(t, { role: "rep" });
    const b = await signedInAs(t, a.user);
    await expectSignedIn(a, true);
    expect((await patchUser(a.user.id, { active: false })).statusCode).toBe(200);
    await expectSignedIn(a, false);
    await expectSignedIn(b, false);
    expect(await endedReasons(a.user.id)).toEqual(["deactivated", "deactivated"]);
    expect((await patchUser(a.user.id, { active: true })).statusCode).toBe(200);
    await expectSignedIn(a, false);
  });

  it("changing a user's role ends their sessions; other changes do not", async () => {
    const s = await signedInAs(t, { role: "rep" });
    expect((await patchUser(s.user.id, { name: "Renamed Person" })).statusCode).toBe(200);
    await expectSignedIn(s, true);
    expect((await patchUser(s.user.id, { role: "rep" })).statusCode).toBe(200);
    await expectSignedIn(s, true);
    expect((await patchUser(s.user.id, { role: "admin" })).statusCode).toBe(200);
    await expectSignedIn(s, false);
    expect(await endedReasons(s.user.id)).toEqual(["role_change"]);
  });

  it("an admin's session ending its own access by a role change is answered, then signed out", async () => {
    const admin = await signedInAs(t, { role: "admin" });
    const res = await t.app.inject({
      method: "PATCH",
      url: `/api/v1/users/${admin.user.id}`,
      headers: admin.headers("PATCH"),
      payload: { role: "finance" },
    });
    expect(res.statusCode, res.body).toBe(200);
    await expectSignedIn(admin, false);
  });

  it("POST /users/{id}/sessions/revoke ends them all, answers how many, and is audited", async () => {
    const a = await signedInAs(t);
    const b = await signedInAs(t, a.user);
    const bystander = await signedInAs(t);
    const revoke = (headers: Record<string, string>, id = a.user.id) =>
      t.app.inject({ method: "POST", url: `/api/v1/users/${id}/sessions/revoke`, headers });
    const res = await revoke(bearer(adminKey));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ revoked: 2 });
    await expectSignedIn(a, false);
    await expectSignedIn(b, false);
    await expectSignedIn(bystander, true);
    expect(await endedReasons(a.user.id)).toEqual(["revoked", "revoked"]);
    expect((await revoke(bearer(adminKey))).json()).toEqual({ revoked: 0 });
    const rows = await t.db.db
      .selectFrom("audit_events")
      .selectAll()
      .where("action", "=", "session.revoke")
      .where("resource_id", "=", a.user.id)
      .orderBy("id")
      .execute();
    expect(rows.map((r) => [r.resource, r.after, r.request_id])).toEqual([
      ["user", { revoked: 2 }, res.headers["request-id"]],
      ["user", { revoked: 0 }, expect.any(String)],
    ]);
    expect(errorOf(await revoke(bearer(adminKey), unknownId("usr"))).code).toBe("not_found");
    const writer = (await createApiKey(t, "write")).key;
    expect(errorOf(await revoke(bearer(writer))).message).toBe(
      "This endpoint needs the admin scope; this key has write",
    );
    const rep = await signedInAs(t, { role: "rep" });
    expect(errorOf(await revoke(rep.headers("POST"), rep.user.id)).message).toBe(
      "This action needs the admin role; you are rep",
    );
    const admin = await signedInAs(t, { role: "admin" });
    expect((await revoke(admin.headers("POST"), bystander.user.id)).json()).toEqual({ revoked: 1 });
    await expectSignedIn(bystander, false);
  });

  it("a logout in one process is seen by the other on its next request", async () => {
    const s = await signedInAs(t);
    await expectSignedIn(s, true);
    const res = await other.app.inject({ method: "POST", url: "/api/v1/auth/logout", headers: s.headers("POST") });
    expect(res.statusCode).toBe(204);
    await expectSignedIn(s, false);
  });
});
