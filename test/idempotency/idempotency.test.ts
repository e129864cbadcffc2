import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimKey } from "../../src/idempotency/store.js";
import { bearer, createTestApp, type TestApp } from "../harness.js";

let t: TestApp;
let key: string;
let keyId: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ key, id: keyId } = await t.key("admin"));
});
afterAll(async () => t.close());

const post = (url: string, payload: unknown, idem?: string) =>
  t.app.inject({
    method: "POST",
    url,
    payload: payload as object,
    headers: { ...bearer(key), ...(idem ? { "idempotency-key": idem } : {}) },
  });

describe("Idempotency-Key", () => {
  it("replays a 201 with Idempotent-Replayed and creates nothing twice", async () => {
    const body = { name: "Replay Ray", email: "ray@example.com" };
    const first = await post("/api/v1/users", body, "create-ray");
    expect(first.statusCode).toBe(201);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    const again = await post("/api/v1/users", { email: "ray@example.com", name: "Replay Ray" }, "create-ray");
    expect(again.statusCode).toBe(201);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json()).toEqual(first.json());
    const users = await t.db.db.selectFrom("users").select("id").where("email", "=", "ray@example.com").execute();
    expect(users).toHaveLength(1);
    const audits = await t.db.db
      .selectFrom("audit_events")
      .select("id")
      .where("resource_id", "=", first.json().id)
      .execute();
    expect(audits).toHaveLength(1);
  });

  it("replays a stored 4xx with the current request id in the body", async () => {
    const first = await post("/api/v1/users", { name: "No Mail" }, "bad-user");
    expect(first.statusCode).toBe(422);
    const again = await post("/api/v1/users", { name: "No Mail" }, "bad-user");
    expect(again.statusCode).toBe(422);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json().error.code).toBe("validation_error");
    expect(again.json().error.request_id).toBe(again.headers["request-id"]);
  });

  it("the same key with another body → 422 idempotency_key_reused, nothing created", async () => {
    await post("/api/v1/users", { name: "Kay", email: "kay@example.com" }, "reuse");
    const other = await post("/api/v1/users", { name: "Kay Two", email: "kay2@example.com" }, "reuse");
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe("idempotency_key_reused");
    expect(await t.db.db.selectFrom("users").select("id").where("email", "=", "kay2@example.com").execute()).toEqual(
      [],
    );
  });

  it("while the first request is still running → 409 idempotency_key_in_use", async () => {
    const body = { name: "Slow", email: "slow@example.com" };
    const { fingerprintOf } = await import("../../src/idempotency/store.js");
    expect(
      await claimKey(t.db.db, keyId, "running-one", fingerprintOf("POST", "/api/v1/users", body), new Date()),
    ).toEqual({ kind: "first" });
    const res = await post("/api/v1/users", body, "running-one");
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe("idempotency_key_in_use");
  });

  it("a response that carried a secret is never stored: its replay is 409 conflict", async () => {
    const first = await post("/api/v1/api-keys", { name: "ci", scope: "read" }, "new-key");
    expect(first.statusCode).toBe(201);
    const stored = await t.db.db
      .selectFrom("idempotency_keys")
      .selectAll()
      .where("idem_key", "=", "new-key")
      .executeTakeFirstOrThrow();
    expect(stored.state).toBe("secret");
    expect(stored.body).toBeNull();
    const again = await post("/api/v1/api-keys", { name: "ci", scope: "read" }, "new-key");
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe("conflict");
    expect(again.json().error.message).toContain("secret");
    expect(JSON.stringify(again.json())).not.toContain(first.json().key);
  });

  it("keys are per API key, and longer than 255 characters is a 422", async () => {
    const other = await t.key("admin", "other admin");
    const mine = await post("/api/v1/users", { name: "Per Key", email: "perkey@example.com" }, "shared");
    expect(mine.statusCode).toBe(201);
    const theirs = await t.app.inject({
      method: "POST",
      url: "/api/v1/users",
      payload: { name: "Per Key", email: "perkey@example.com" },
      headers: { ...bearer(other.key), "idempotency-key": "shared" },
    });
    expect(theirs.statusCode).toBe(409); // not a replay: their own attempt hits the unique email
    expect(theirs.json().error.code).toBe("conflict");
    const long = await post("/api/v1/users", { name: "L", email: "l@example.com" }, "x".repeat(256));
    expect(long.statusCode).toBe(422);
    expect(long.json().error.details).toEqual([
      { param: "Idempotency-Key", message: "must be 1-255 characters, sent once" },
    ]);
  });
});
