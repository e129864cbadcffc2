import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
});
