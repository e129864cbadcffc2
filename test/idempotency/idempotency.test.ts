import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdRunningLock } from "../../src/idempotency/repository.js";
import { bearer, createTestApp, POSTGRES_URL, type TestApp } from "../harness.js";

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

const userRow = (email: string) => ({
  id: `usr_blocker_${email}`,
  external_id: null,
  name: "Blocker",
  email,
  role: "rep" as const,
  manager_id: null,
  active: true,
  created_at: new Date(),
  updated_at: new Date(),
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

  it("#13.22 while the first request is still running in this process → 409 idempotency_key_in_use", async () => {
    const body = { name: "Slow", email: "slow@example.com" };
    // Holds what the first request needs (the single embedded connection; on PostgreSQL the new
    // email's unique-index slot), so it is still running when the second arrives.
    const blocker = await t.db.db.startTransaction().execute();
    await blocker.insertInto("users").values(userRow("slow@example.com")).execute();
    const first = post("/api/v1/users", body, "running-one");
    const second = post("/api/v1/users", body, "running-one");
    const refused = await Promise.race([first, second]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe("idempotency_key_in_use");
    await blocker.rollback().execute();
    expect((await Promise.all([first, second])).map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const replay = await post("/api/v1/users", body, "running-one");
    expect(replay.headers["idempotent-replayed"]).toBe("true");
  });

  it.skipIf(!POSTGRES_URL)(
    "#13.22 running in another process: 409 while its transaction lives, a first run once it died",
    async () => {
      const body = { name: "Elsewhere", email: "elsewhere@example.com" };
      const other = await t.db.db.startTransaction().execute(); // another process's request, mid-work
      expect(await holdRunningLock(other, keyId, "elsewhere")).toBe(true);
      const refused = await post("/api/v1/users", body, "elsewhere");
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe("idempotency_key_in_use");
      await other.rollback().execute(); // that process died before committing
      const retry = await post("/api/v1/users", body, "elsewhere");
      expect(retry.statusCode).toBe(201);
      expect(retry.headers["idempotent-replayed"]).toBeUndefined();
      const users = await t.db.db.selectFrom("users").select("id").where("email", "=", body.email).execute();
      expect(users.map((u) => u.id)).toEqual([retry.json().id]);
    },
  );

  it("#13.22 a 4xx raised inside the work's transaction undoes the work and is replayed", async () => {
    await post("/api/v1/users", { name: "Taken", email: "taken@example.com" });
    const body = { name: "Taken Again", email: "taken@example.com" };
    const first = await post("/api/v1/users", body, "taken");
    expect(first.statusCode).toBe(409);
    expect(first.json().error.code).toBe("conflict");
    const again = await post("/api/v1/users", body, "taken");
    expect(again.statusCode).toBe(409);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json().error.message).toBe(first.json().error.message);
    const audits = await t.db.db
      .selectFrom("audit_events")
      .select("id")
      .where("request_id", "=", first.headers["request-id"] as string)
      .execute();
    expect(audits).toEqual([]);
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

describe("#13.1 #13.36 × #13.22: idempotency with every spelling of a path, and with If-Match", () => {
  const send = (method: "POST" | "PATCH", url: string, payload: unknown, headers: Record<string, string>) =>
    t.app.inject({ method, url, payload: payload as object, headers: { ...bearer(key), ...headers } });

  it.each([
    ["an encoded first letter", "/%61pi/v1/users"],
    ["an encoded letter inside", "/api/v1/%75sers"],
    ["an encoded version", "/api/%76%31/users"],
  ])("a retry spelled with %s replays (one fingerprint per routed path)", async (_label, spelled) => {
    const idem = { "idempotency-key": `spelling-${spelled}` };
    const body = { name: "Spelled Out", email: `spelled-${spelled.length}-${spelled.charCodeAt(3)}@example.com` };
    const first = await send("POST", "/api/v1/users", body, idem);
    expect(first.statusCode, first.body).toBe(201);
    const again = await send("POST", spelled, body, idem);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json().id).toBe(first.json().id);
  });

  it("a parameter spelled encoded replays too", async () => {
    const user = (await send("POST", "/api/v1/users", { name: "Param", email: "param@example.com" }, {})).json();
    const idem = { "idempotency-key": "param-spelling" };
    const first = await send("PATCH", `/api/v1/users/${user.id}`, { name: "Param 2" }, idem);
    expect(first.statusCode, first.body).toBe(200);
    const encoded = `%${user.id.charCodeAt(0).toString(16)}${user.id.slice(1)}`;
    const again = await send("PATCH", `/api/v1/users/${encoded}`, { name: "Param 2" }, idem);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
  });

  it("a 412 is not stored: the retry with a fresh If-Match runs (it is not the stale 412 replayed)", async () => {
    const user = (await send("POST", "/api/v1/users", { name: "Tag", email: "tag@example.com" }, {})).json();
    const read = await t.app.inject({ method: "GET", url: `/api/v1/users/${user.id}`, headers: bearer(key) });
    const stale = read.headers.etag as string;
    expect((await send("PATCH", `/api/v1/users/${user.id}`, { name: "Tag 2" }, {})).statusCode).toBe(200);
    const idem = "if-match-retry";
    const refused = await send(
      "PATCH",
      `/api/v1/users/${user.id}`,
      { name: "Tag 3" },
      { "idempotency-key": idem, "if-match": stale },
    );
    expect(refused.statusCode, refused.body).toBe(412);
    expect(refused.json().error.code).toBe("precondition_failed");
    const fresh = (await t.app.inject({ method: "GET", url: `/api/v1/users/${user.id}`, headers: bearer(key) })).headers
      .etag as string;
    const retried = await send(
      "PATCH",
      `/api/v1/users/${user.id}`,
      { name: "Tag 3" },
      { "idempotency-key": idem, "if-match": fresh },
    );
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.headers["idempotent-replayed"]).toBeUndefined();
    expect(retried.json().name).toBe("Tag 3");
  });
});
