import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../src/passwords/index.js";
import { uniqueEmail } from "../factories.js";
import { createTestApp, type TestApp } from "../harness.js";
import { signedInAs } from "../sessions.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

function createUserAs(headers: Record<string, string>, key: string, email: string) {
  return t.app.inject({
    method: "POST",
    url: "/api/v1/users",
    headers: { ...headers, "idempotency-key": key },
    payload: { name: "Retried", email },
  });
}

describe("Idempotency-Key with a session (the console retries writes like any client)", () => {
  it("replays the stored reply to the same person, writes once, and is the person's own", async () => {
    const admin = await signedInAs(t, { role: "admin" });
    const email = uniqueEmail("idem");
    const first = await createUserAs(admin.headers("POST"), "retry-1", email);
    expect(first.statusCode, first.body).toBe(201);
    const again = await createUserAs(admin.headers("POST"), "retry-1", email);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers["idempotent-replayed"]).toBe("true");
    const rows = await t.db.db.selectFrom("users").select("id").where("email", "=", email).execute();
    expect(rows).toHaveLength(1);

    // Another person's same key is another request: it runs (and meets the unique email).
    const other = await signedInAs(t, { role: "admin" });
    const theirs = await createUserAs(other.headers("POST"), "retry-1", email);
    expect(theirs.statusCode).toBe(409);
    expect(theirs.headers["idempotent-replayed"]).toBeUndefined();

    const reused = await createUserAs(admin.headers("POST"), "retry-1", uniqueEmail("idem"));
    expect(reused.statusCode).toBe(422);
    expect(reused.json().error.code).toBe("idempotency_key_reused");
  });

  it("keeps nothing of POST /auth/password: its body (two passwords) never reaches a stored fingerprint", async () => {
    const me = await signedInAs(t, { role: "rep" });
    const current = "an old long passphrase 1";
    await t.db.db
      .updateTable("users")
      .set({ password_hash: await hashPassword(current) })
      .where("id", "=", me.user.id)
      .execute();
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/password",
      headers: { ...me.headers("POST"), "idempotency-key": "pw-1" },
      payload: { current_password: current, new_password: "a new long passphrase 2" },
    });
    expect(res.statusCode, res.body).toBe(204);
    const rows = await t.db.db.selectFrom("idempotency_keys").selectAll().where("key_id", "=", me.user.id).execute();
    expect(rows).toEqual([]);
  });
});
