import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decryptSecret } from "../../src/webhooks/index.js";
import { errorOf, freshIp, unknownId } from "../factories.js";
import { bearer, createTestApp, TEST_SECRET_KEY, type TestApp } from "../harness.js";
import { type CreatedSubscription, type Receiver, startReceiver, subscribe, webhookApp } from "./support.js";

let receiver: Receiver;
let t: TestApp;
let admin: string;

beforeAll(async () => {
  receiver = await startReceiver();
  t = await webhookApp(receiver);
  admin = (await t.key("admin")).key;
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const api = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: unknown, key = admin) =>
  t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: bearer(key),
    remoteAddress: freshIp(),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe("create, read, update, delete", () => {
  let created: CreatedSubscription;

  it("POST returns 201 with the secret (whsec_ + base64 of 32 bytes), once", async () => {
    created = await subscribe(t, admin, {
      url: receiver.url,
      events: ["deal.approved", "deal.paid"],
      description: "CRM",
    });
    expect(created).toMatchObject({
      url: receiver.url,
      events: ["deal.approved", "deal.paid"],
      description: "CRM",
      status: "active",
      disabled_reason: null,
      previous_secret_expires_at: null,
    });
    expect(created.id).toMatch(/^whsub_[0-9A-Z]{26}$/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), "base64")).toHaveLength(32);
    expect(created.secret_hint).toBe(`whsec_…${created.secret.slice(-4)}`);
  });

  it("GET one and the list show secret_hint and never the secret", async () => {
    const one = await api("GET", `/webhook-subscriptions/${created.id}`);
    expect(one.statusCode).toBe(200);
    const { secret, ...shown } = created;
    expect(one.json()).toEqual(shown);
    const list = await api("GET", "/webhook-subscriptions");
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((s: { id: string }) => s.id)).toContain(created.id);
    for (const body of [one.body, list.body]) {
      expect(body).not.toContain(secret);
      expect(body).not.toContain('"secret"');
    }
  });

  it("the secret is stored only encrypted, under the deployment's key", async () => {
    const row = await t.db.db
      .selectFrom("webhook_subscriptions")
      .selectAll()
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(6));
    expect(row.secret_encrypted).toMatch(/^v1:/);
    expect(decryptSecret(TEST_SECRET_KEY, row.secret_encrypted)).toBe(created.secret);
  });

  it("PATCH merges url, events, description and status; a no-op changes nothing", async () => {
    const res = await api("PATCH", `/webhook-subscriptions/${created.id}`, {
      events: ["*"],
      description: null,
      status: "disabled",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ url: receiver.url, events: ["*"], description: null, status: "disabled" });
    const again = await api("PATCH", `/webhook-subscriptions/${created.id}`, { status: "disabled" });
    expect(again.json().updated_at).toBe(res.json().updated_at);
    const back = await api("PATCH", `/webhook-subscriptions/${created.id}`, {
      status: "active",
      url: `${receiver.url}/v2`,
    });
    expect(back.json()).toMatchObject({ status: "active", url: `${receiver.url}/v2` });
  });

  it("duplicate event names collapse; unknown ones are 422 naming the item", async () => {
    const dup = await subscribe(t, admin, { url: receiver.url, events: ["deal.paid", "deal.paid"] });
    expect(dup.events).toEqual(["deal.paid"]);
    const bad = await api("POST", "/webhook-subscriptions", {
      url: receiver.url,
      events: ["deal.paid", "deal.exploded"],
    });
    expect(bad.statusCode).toBe(422);
    expect(errorOf(bad).details).toEqual([
      { param: "events[1]", message: expect.stringContaining("must be * or one of deal.created") },
    ]);
    const empty = await api("POST", "/webhook-subscriptions", { url: receiver.url, events: [] });
    expect(errorOf(empty).details?.[0]?.param).toBe("events");
  });

  it("DELETE answers 204 with no body; the subscription is gone", async () => {
    const res = await api("DELETE", `/webhook-subscriptions/${created.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");
    expect((await api("GET", `/webhook-subscriptions/${created.id}`)).statusCode).toBe(404);
  });
});

describe("target validation at create and update (422 naming url)", () => {
  it.each([
    ["http on a host that is not exempt", "http://hooks.example.com/x", "must use https"],
    ["a loopback literal", "https://127.0.0.1/x", "127.0.0.1:443 is a loopback target but is not listed"],
    ["a numeric trick for loopback", "https://2130706433/x", "loopback"],
    ["a private address", "https://10.1.2.3/x", "private"],
    ["a link-local (metadata) address", "https://169.254.169.254/latest", "link-local"],
    ["an IPv4-mapped loopback", "https://[::ffff:127.0.0.1]/", "127.0.0.1"],
    ["a low port", "https://93.184.215.14:22/", "port must be 443 or 1024 and above"],
    ["credentials in the url", "https://user:pw@93.184.215.14/", "credentials"],
    ["not a URL", "hooks", "not a valid absolute URL"],
    ["the exempt host on another port", "http://127.0.0.1:1/x", "port must be 443 or 1024 and above, not 1"],
  ])("%s → 422", async (_label, url, reason) => {
    const res = await api("POST", "/webhook-subscriptions", { url, events: ["*"] });
    expect(res.statusCode, res.body).toBe(422);
    const error = errorOf(res);
    expect(error.code).toBe("validation_error");
    expect(error.message).toMatch(/^url is not an acceptable webhook target: /);
    expect(error.details).toHaveLength(1);
    expect(error.details![0]!.param).toBe("url");
    expect(error.details![0]!.message).toContain(reason);
  });

  it("a public-looking name that resolves to a private address (DNS rebinding) → 422", async () => {
    const local = await createTestApp({
      webhooks: { lookup: async () => [{ address: "93.184.215.14" }, { address: "192.168.1.20" }] },
    });
    try {
      const key = (await local.key("admin")).key;
      const res = await local.app.inject({
        method: "POST",
        url: "/api/v1/webhook-subscriptions",
        headers: bearer(key),
        payload: { url: "https://hooks.example.com/in", events: ["*"] },
      });
      expect(res.statusCode).toBe(422);
      expect(errorOf(res).details![0]!.message).toBe(
        "hooks.example.com resolves to 192.168.1.20: 192.168.1.20 is private",
      );
      const ok = await local.app.inject({
        method: "POST",
        url: "/api/v1/webhook-subscriptions",
        headers: bearer(key),
        payload: { url: "https://93.184.215.14/in", events: ["*"] },
      });
      expect(ok.statusCode).toBe(201);
    } finally {
      await local.close();
    }
  });

  it("PATCH validates the new url again", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    const res = await api("PATCH", `/webhook-subscriptions/${sub.id}`, { url: "https://[fd00::1]/x" });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res).details![0]).toMatchObject({ param: "url", message: expect.stringContaining("unique-local") });
  });
});

describe("rotate-secret", () => {
  it("returns a new secret once; the previous one is kept encrypted and signs for 24 h", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    const res = await api("POST", `/webhook-subscriptions/${sub.id}/rotate-secret`);
    expect(res.statusCode, res.body).toBe(200);
    const rotated = res.json();
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(sub.secret);
    expect(rotated.secret_hint).toBe(`whsec_…${rotated.secret.slice(-4)}`);
    const grace = Date.parse(rotated.previous_secret_expires_at) - Date.parse(rotated.updated_at);
    expect(grace).toBe(24 * 60 * 60 * 1000);
    const row = await t.db.db
      .selectFrom("webhook_subscriptions")
      .select(["secret_encrypted", "previous_secret_encrypted"])
      .where("id", "=", sub.id)
      .executeTakeFirstOrThrow();
    expect(decryptSecret(TEST_SECRET_KEY, row.secret_encrypted)).toBe(rotated.secret);
    expect(decryptSecret(TEST_SECRET_KEY, row.previous_secret_encrypted!)).toBe(sub.secret);
    expect((await api("GET", `/webhook-subscriptions/${sub.id}`)).body).not.toContain(rotated.secret);
  });
});

describe("audit trail", () => {
  it("every write is audited, with no secret (nor its ciphertext) in any row", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["deal.paid"] });
    const rotated = (await api("POST", `/webhook-subscriptions/${sub.id}/rotate-secret`)).json();
    await api("PATCH", `/webhook-subscriptions/${sub.id}`, { events: ["deal.approved"] });
    await api("POST", `/webhook-subscriptions/${sub.id}/test`);
    await api("DELETE", `/webhook-subscriptions/${sub.id}`);
    const rows = await t.db.db
      .selectFrom("audit_events")
      .selectAll()
      .where("resource_id", "=", sub.id)
      .orderBy("id")
      .execute();
    expect(rows.map((r) => r.action)).toEqual([
      "webhook_subscription.create",
      "webhook_subscription.rotate_secret",
      "webhook_subscription.update",
      "webhook_subscription.test",
      "webhook_subscription.delete",
    ]);
    const text = JSON.stringify(rows);
    for (const secret of [sub.secret, rotated.secret]) expect(text).not.toContain(secret.slice(6, 30));
    expect(text).not.toContain("v1:");
    expect(rows[0]!.after).toMatchObject({ id: sub.id, secret_hint: sub.secret_hint });
  });

  it("no secret reaches the request log", async () => {
    const sub = await subscribe(t, admin, { url: receiver.url, events: ["*"] });
    await t.requestLog.flush();
    const logs = await sql<{ text: string }>`SELECT row_to_json(r)::text AS text FROM request_logs r`.execute(t.db.db);
    expect(logs.rows.map((r) => r.text).join("\n")).not.toContain(sub.secret.slice(6, 30));
  });
});

describe("Idempotency-Key on secret-bearing responses", () => {
  it("create and rotate-secret are never stored: a replay is 409 and no table holds the secret", async () => {
    const headers = { ...bearer(admin), "idempotency-key": "create-hooks-1" };
    const body = { url: receiver.url, events: ["*"] };
    const post = (url: string, payload: object) =>
      t.app.inject({ method: "POST", url: `/api/v1${url}`, headers, remoteAddress: freshIp(), payload });
    const first = await post("/webhook-subscriptions", body);
    expect(first.statusCode).toBe(201);
    const replay = await post("/webhook-subscriptions", body);
    expect(replay.statusCode).toBe(409);
    expect(errorOf(replay)).toMatchObject({
      code: "conflict",
      message: expect.stringContaining("already issued its secret"),
    });
    const id = first.json().id as string;
    const rotateHeaders = { ...bearer(admin), "idempotency-key": "rotate-hooks-1" };
    const rotate = () =>
      t.app.inject({
        method: "POST",
        url: `/api/v1/webhook-subscriptions/${id}/rotate-secret`,
        headers: rotateHeaders,
      });
    const rotated = await rotate();
    expect(rotated.statusCode).toBe(200);
    expect((await rotate()).statusCode).toBe(409);
    const dump = await sql<{ text: string }>`SELECT row_to_json(k)::text AS text FROM idempotency_keys k`.execute(
      t.db.db,
    );
    const stored = dump.rows.map((r) => r.text).join("\n");
    for (const secret of [first.json().secret, rotated.json().secret])
      expect(stored).not.toContain(secret.slice(6, 30));
  });
});

describe("security table", () => {
  const ROUTES: { method: "GET" | "POST" | "PATCH" | "DELETE"; path: string; body?: unknown; invalid: unknown }[] = [
    { method: "GET", path: "/webhook-subscriptions", invalid: "per_page=101" },
    { method: "POST", path: "/webhook-subscriptions", body: {}, invalid: { url: "https://x.test", events: "*" } },
    { method: "GET", path: "/webhook-subscriptions/{id}", invalid: null },
    { method: "PATCH", path: "/webhook-subscriptions/{id}", body: { status: "active" }, invalid: { status: "paused" } },
    { method: "DELETE", path: "/webhook-subscriptions/{id}", invalid: null },
    { method: "POST", path: "/webhook-subscriptions/{id}/rotate-secret", body: {}, invalid: { grace: 1 } },
    { method: "POST", path: "/webhook-subscriptions/{id}/test", body: {}, invalid: { type: "deal.paid" } },
    { method: "GET", path: "/webhook-subscriptions/{id}/deliveries", invalid: "status=late" },
    { method: "POST", path: "/webhook-deliveries/{id}/retry", body: {}, invalid: { now: true } },
  ];
  let keys: Record<"read" | "write" | "admin", string>;
  beforeAll(async () => {
    keys = {
      read: (await t.key("read")).key,
      write: (await t.key("write")).key,
      admin: (await t.key("admin")).key,
    };
  });

  const send = (route: (typeof ROUTES)[number], headers: Record<string, string>, id: string, body?: unknown) => {
    const [path, query] = route.path.replace("{id}", id).split("?");
    return t.app.inject({
      method: route.method,
      url: `/api/v1${path}${query ? `?${query}` : ""}`,
      headers,
      remoteAddress: freshIp(),
      ...(body !== undefined ? { payload: body as object } : {}),
    });
  };

  describe.each(ROUTES)("$method $path", (route) => {
    const id = route.path.startsWith("/webhook-deliveries") ? unknownId("whdel") : unknownId("whsub");

    it("no key → 401", async () => {
      const res = await send(route, {}, id, route.body);
      expect(res.statusCode).toBe(401);
      expect(errorOf(res).code).toBe("unauthorized");
    });

    it.each(["read", "write"] as const)("a %s key → 403 naming the admin scope", async (scope) => {
      const res = await send(route, bearer(keys[scope]), id, route.body);
      expect(res.statusCode).toBe(403);
      expect(errorOf(res).message).toContain("needs the admin scope");
    });

    if (route.path.includes("{id}")) {
      it("an unknown id → 404 naming it", async () => {
        const res = await send(route, bearer(keys.admin), id, route.body);
        expect(res.statusCode).toBe(404);
        expect(errorOf(res).code).toBe("not_found");
        expect(errorOf(res).message).toContain(id);
      });

      it("an id over 255 characters → 422 naming id", async () => {
        const res = await send(route, bearer(keys.admin), "w".repeat(256), route.body);
        expect(res.statusCode).toBe(422);
        expect(errorOf(res).details?.map((d) => d.param)).toEqual(["id"]);
      });
    }

    if (route.invalid !== null) {
      it("a bad body or query → 422", async () => {
        const query = typeof route.invalid === "string" ? route.invalid : undefined;
        const res = query
          ? await send({ ...route, path: `${route.path}?${query}` }, bearer(keys.admin), id)
          : await send(route, bearer(keys.admin), id, route.invalid);
        expect(res.statusCode, res.body).toBe(422);
        expect(errorOf(res).code).toBe("validation_error");
      });
    }
  });
});
