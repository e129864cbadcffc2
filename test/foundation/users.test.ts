import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppOptions, buildApp } from "../../src/app/build.js";
import type { User } from "../../src/users/index.js";
import { createApiKey, createUser, errorOf, unique, uniqueEmail } from "../factories.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";

let t: TestApp;
let clock: TestClock;
let writer: { id: string; key: string; name: string };
let admin: string;
let reader: string;

beforeAll(async () => {
  clock = new TestClock();
  t = await createTestApp({ clock });
  writer = await createApiKey(t, "write", { name: "HR sync" });
  admin = (await createApiKey(t, "admin")).key;
  reader = (await createApiKey(t, "read")).key;
});

afterAll(async () => {
  await t?.close();
});

/** As the HR sync's write key, or (role, active: API.md §20 (a)) an admin key. */
function post(payload: object, key = writer.key) {
  return t.app.inject({ method: "POST", url: "/api/v1/users", headers: bearer(key), payload });
}

function patch(id: string, payload: object, key = writer.key) {
  return t.app.inject({ method: "PATCH", url: `/api/v1/users/${id}`, headers: bearer(key), payload });
}

function get(url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: "GET", url, headers: { ...bearer(reader), ...headers } });
}

async function list(query: string): Promise<{ data: User[]; meta: { page: number; per_page: number; total: number } }> {
  const res = await get(`/api/v1/users?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function auditCount(): Promise<number> {
  const row = await t.db.db
    .selectFrom("audit_events")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe("create and get", () => {
  it("creates with defaults (role rep, active true) and returns the object with 201", async () => {
    const email = uniqueEmail("grace");
    const res = await post({ name: "Grace Hopper", email });
    expect(res.statusCode).toBe(201);
    const now = clock.now().toISOString();
    expect(res.json()).toEqual({
      id: expect.stringMatching(/^usr_[0-9A-Z]{26}$/),
      external_id: null,
      name: "Grace Hopper",
      email,
      role: "rep",
      manager_id: null,
      active: true,
      payroll_id: null,
      created_at: now,
      updated_at: now,
    });
    const one = await get(`/api/v1/users/${res.json().id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(res.json());
  });

  it("takes every writable field", async () => {
    const manager = await createUser(t, { role: "manager" });
    const externalId = unique("crm");
    const res = await post(
      {
        name: "Alan Turing",
        email: uniqueEmail("alan"),
        role: "finance",
        active: false,
        manager_id: manager.id,
        external_id: externalId,
      },
      admin,
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      role: "finance",
      active: false,
      manager_id: manager.id,
      external_id: externalId,
    });
  });

  it("trims the name and refuses a blank one", async () => {
    expect((await post({ name: "  Ada  ", email: uniqueEmail() })).json().name).toBe("Ada");
    const blank = await post({ name: "   ", email: uniqueEmail() });
    expect(blank.statusCode).toBe(422);
    expect(errorOf(blank).details?.[0]?.param).toBe("name");
  });
});

describe("patch merges", () => {
  it("keeps omitted fields, changes given ones, and null clears manager_id and external_id", async () => {
    const manager = await createUser(t, { role: "manager" });
    const user = await createUser(t, { manager_id: manager.id, external_id: unique("ext"), role: "rep" });
    clock.advance(1_000);
    const renamed = await patch(user.id, { name: "Renamed Person" });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({ ...user, name: "Renamed Person", updated_at: clock.now().toISOString() });

    clock.advance(1_000);
    const cleared = await patch(user.id, { manager_id: null, external_id: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toEqual({
      ...user,
      name: "Renamed Person",
      manager_id: null,
      external_id: null,
      updated_at: clock.now().toISOString(),
    });
    expect((await get(`/api/v1/users/${user.id}`)).json()).toEqual(cleared.json());
  });

  it("deactivates with active: false; an empty patch changes nothing and writes no audit row", async () => {
    const user = await createUser(t);
    const off = await patch(user.id, { active: false }, admin);
    expect(off.json().active).toBe(false);
    const count = await auditCount();
    clock.advance(1_000);
    const same = await patch(user.id, {});
    expect(same.statusCode).toBe(200);
    expect(same.json()).toEqual(off.json());
    expect(await auditCount()).toBe(count);
  });

  it.each([
    [{ name: null }, "name"],
    [{ email: null }, "email"],
    [{ role: null }, "role"],
    [{ active: null }, "active"],
    [{ created_at: "2026-01-01T00:00:00.000Z" }, "created_at"],
  ])("%j → 422 naming %s (not nullable or read-only)", async (payload, param) => {
    const user = await createUser(t);
    const res = await patch(user.id, payload);
    expect(res.statusCode).toBe(422);
    expect(errorOf(res).details?.map((d) => d.param)).toEqual([param]);
  });
});

describe("uniqueness", () => {
  it("a duplicate email, compared case-insensitively → 409 conflict (create and patch)", async () => {
    const email = uniqueEmail("Ada.Lovelace");
    expect((await post({ name: "Ada", email })).statusCode).toBe(201);
    const dup = await post({ name: "Ada again", email: email.toUpperCase() });
    expect(dup.statusCode).toBe(409);
    expect(errorOf(dup).code).toBe("conflict");
    expect(errorOf(dup).message).toBe(`A user with email ${email.toUpperCase()} already exists`);

    const other = await createUser(t);
    const viaPatch = await patch(other.id, { email: email.toLowerCase() });
    expect(viaPatch.statusCode).toBe(409);
    expect(errorOf(viaPatch).code).toBe("conflict");
  });

  it("a duplicate external_id → 409 conflict (create and patch)", async () => {
    const externalId = unique("sf");
    await createUser(t, { external_id: externalId });
    const dup = await post({ name: "Twin", email: uniqueEmail(), external_id: externalId });
    expect(dup.statusCode).toBe(409);
    expect(errorOf(dup)).toMatchObject({
      code: "conflict",
      message: `A user with external_id ${externalId} already exists`,
    });
    const other = await createUser(t);
    expect((await patch(other.id, { external_id: externalId })).statusCode).toBe(409);
  });

  it("a failed write writes no audit row and changes nothing", async () => {
    const taken = await createUser(t);
    const user = await createUser(t);
    const count = await auditCount();
    expect((await post({ name: "Dup", email: taken.email })).statusCode).toBe(409);
    expect((await patch(user.id, { name: "Changed", email: taken.email })).statusCode).toBe(409);
    expect(await auditCount()).toBe(count);
    expect((await get(`/api/v1/users/${user.id}`)).json()).toEqual(user);
  });
});

describe("managers", () => {
  it("must exist → 422 naming manager_id (create and patch)", async () => {
    const missing = "usr_00000000000000000000000000";
    const res = await post({ name: "Orphan", email: uniqueEmail(), manager_id: missing });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res).details).toEqual([{ param: "manager_id", message: `user ${missing} does not exist` }]);
    const user = await createUser(t);
    const viaPatch = await patch(user.id, { manager_id: missing });
    expect(viaPatch.statusCode).toBe(422);
    expect(errorOf(viaPatch).details?.[0]?.param).toBe("manager_id");
  });

  it("a user cannot manage itself → 422", async () => {
    const user = await createUser(t);
    const res = await patch(user.id, { manager_id: user.id });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res).details).toEqual([{ param: "manager_id", message: "cannot be the user itself" }]);
  });

  it("managers cannot form a cycle → 422 (direct and longer)", async () => {
    const a = await createUser(t);
    const b = await createUser(t, { manager_id: a.id });
    const c = await createUser(t, { manager_id: b.id });
    const direct = await patch(a.id, { manager_id: b.id });
    expect(direct.statusCode).toBe(422);
    expect(errorOf(direct).details?.[0]?.param).toBe("manager_id");
    const longer = await patch(a.id, { manager_id: c.id });
    expect(longer.statusCode).toBe(422);
    expect(errorOf(longer).details).toEqual([
      { param: "manager_id", message: `${c.id} reports to ${a.id}; managers cannot form a cycle` },
    ]);
    // Moving down the chain without closing a loop is fine.
    const d = await createUser(t);
    expect((await patch(c.id, { manager_id: d.id })).statusCode).toBe(200);
  });
});

describe("list", () => {
  it("filters by role, active, manager_id and email (case-insensitive)", async () => {
    const boss = await createUser(t, { role: "manager" });
    const rep = await createUser(t, { manager_id: boss.id, role: "rep" });
    const finance = await createUser(t, { manager_id: boss.id, role: "finance" });
    const inactive = await createUser(t, { manager_id: boss.id, role: "rep", active: false });

    const ids = (page: { data: User[] }) => page.data.map((u) => u.id);
    expect(ids(await list(`manager_id=${boss.id}`)).sort()).toEqual([rep.id, finance.id, inactive.id].sort());
    expect(ids(await list(`manager_id=${boss.id}&role=rep`)).sort()).toEqual([rep.id, inactive.id].sort());
    expect(ids(await list(`manager_id=${boss.id}&active=false`))).toEqual([inactive.id]);
    expect(ids(await list(`manager_id=${boss.id}&active=true&role=rep`))).toEqual([rep.id]);
    const byEmail = await list(`email=${encodeURIComponent(finance.email.toUpperCase())}`);
    expect(ids(byEmail)).toEqual([finance.id]);
    expect(byEmail.meta.total).toBe(1);

    const financeOnly = await list("role=finance&per_page=100");
    expect(financeOnly.data.every((u) => u.role === "finance")).toBe(true);
    expect(ids(financeOnly)).toContain(finance.id);
    const inactiveOnly = await list("active=false&per_page=100");
    expect(inactiveOnly.data.every((u) => !u.active)).toBe(true);
    expect(ids(inactiveOnly)).toContain(inactive.id);
    expect((await list(`manager_id=usr_00000000000000000000000000`)).data).toEqual([]);
  });

  it.each(["active=yes", "active=1", "role=ceo", "page=abc"])("%s → 422", async (query) => {
    const res = await get(`/api/v1/users?${query}`);
    expect(res.statusCode).toBe(422);
    expect(errorOf(res).details?.[0]?.param).toBe(query.split("=")[0]);
  });

  it("orders by created_at desc, then id desc", async () => {
    const boss = await createUser(t);
    const base = clock.ms;
    clock.ms = base + 20_000;
    const newest = await createUser(t, { manager_id: boss.id });
    clock.ms = base + 10_000; // created later, but with an earlier created_at: created_at decides
    const olderA = await createUser(t, { manager_id: boss.id });
    const olderB = await createUser(t, { manager_id: boss.id }); // same created_at as olderA: id decides
    clock.ms = base + 20_000;
    expect(olderB.id > olderA.id && olderA.id > newest.id).toBe(true);
    const page = await list(`manager_id=${boss.id}`);
    expect(page.data.map((u) => u.id)).toEqual([newest.id, olderB.id, olderA.id]);
  });

  describe("pagination", () => {
    let boss: User;
    beforeAll(async () => {
      boss = await createUser(t);
      for (let i = 0; i < 5; i++) await createUser(t, { manager_id: boss.id });
    });

    /** rel → the link's query parameters, after checking the link's origin and path. */
    function links(header: string | undefined): Record<string, Record<string, string>> {
      const out: Record<string, Record<string, string>> = {};
      for (const part of (header ?? "").split(", ")) {
        const m = /^<([^>]+)>; rel="(\w+)"$/.exec(part);
        expect(m, part).not.toBeNull();
        expect(m![1]!.startsWith("http://127.0.0.1:3000/api/v1/users?")).toBe(true);
        out[m![2]!] = Object.fromEntries(new URL(m![1]!).searchParams);
      }
      return out;
    }

    async function pageOf(page: number) {
      const res = await get(`/api/v1/users?manager_id=${boss.id}&per_page=2&page=${page}`);
      expect(res.statusCode).toBe(200);
      return { body: res.json(), links: links(res.headers.link as string) };
    }

    const q = (page: number) => ({ manager_id: boss.id, per_page: "2", page: String(page) });

    it("page 1 of 3: first, next, last", async () => {
      const { body, links } = await pageOf(1);
      expect(body.meta).toEqual({ page: 1, per_page: 2, total: 5 });
      expect(body.data).toHaveLength(2);
      expect(links).toEqual({ first: q(1), next: q(2), last: q(3) });
    });

    it("page 2 of 3: first, prev, next, last", async () => {
      const { body, links } = await pageOf(2);
      expect(body.meta).toEqual({ page: 2, per_page: 2, total: 5 });
      expect(links).toEqual({ first: q(1), prev: q(1), next: q(3), last: q(3) });
    });

    it("page 3 of 3: first, prev, last", async () => {
      const { body, links } = await pageOf(3);
      expect(body.data).toHaveLength(1);
      expect(links).toEqual({ first: q(1), prev: q(2), last: q(3) });
    });

    it("past the end: empty data, prev points at the last page", async () => {
      const { body, links } = await pageOf(9);
      expect(body).toEqual({ data: [], meta: { page: 9, per_page: 2, total: 5 } });
      expect(links).toEqual({ first: q(1), prev: q(3), last: q(3) });
    });

    it("the pages together hold every record once, in order", async () => {
      const all = [];
      for (const page of [1, 2, 3]) all.push(...(await pageOf(page)).body.data);
      const whole = await list(`manager_id=${boss.id}`);
      expect(all).toEqual(whole.data);
      expect(whole.meta).toEqual({ page: 1, per_page: 25, total: 5 });
    });

    it("a single page: only first and last", async () => {
      const res = await get(`/api/v1/users?manager_id=${boss.id}`);
      expect(links(res.headers.link as string)).toEqual({
        first: { manager_id: boss.id, page: "1", per_page: "25" },
        last: { manager_id: boss.id, page: "1", per_page: "25" },
      });
    });
  });
});

describe("the origin of Link URLs", () => {
  /** The `first` link of a one-per-page list, from `app` (a second app over this database when options are given). */
  async function firstLink(options: Partial<AppOptions> | null, headers: Record<string, string> = {}) {
    const other = options && (await buildApp({ db: t.db.db, env: "test", clock: clock.now, ...options }));
    try {
      const res = await (other ?? t).app.inject({
        method: "GET",
        url: "/api/v1/users?per_page=1",
        remoteAddress: "10.0.0.2",
        headers: { ...bearer(reader), ...headers },
      });
      expect(res.statusCode).toBe(200);
      return /^<([^>]+)>; rel="first"/.exec(res.headers.link as string)?.[1];
    } finally {
      await other?.app.close();
    }
  }

  it("is CTS_PUBLIC_URL when set", async () => {
    expect(await firstLink({ publicUrl: "https://cts.example.com" })).toBe(
      "https://cts.example.com/api/v1/users?per_page=1&page=1",
    );
  });

  it("is else the listen address, never what a proxy forwarded, trusted or not (API.md §20 (d))", async () => {
    const forwarded = { "x-forwarded-proto": "https", "x-forwarded-host": "crm.example.com" };
    const listened = "http://cts.internal:8080/api/v1/users?per_page=1&page=1";
    const listen = { host: "cts.internal", port: 8080 };
    expect(await firstLink({ trustProxy: 1, listen }, forwarded)).toBe(listened);
    expect(await firstLink({ listen }, forwarded)).toBe(listened);
    expect(await firstLink(null, forwarded)).toBe("http://127.0.0.1:3000/api/v1/users?per_page=1&page=1");
  });
});

describe("caching", () => {
  it("GET carries a strong ETag; a matching If-None-Match gets 304 with no body", async () => {
    const user = await createUser(t);
    const first = await get(`/api/v1/users/${user.id}`);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers["cache-control"]).toBe("private, no-cache");
    expect((await get(`/api/v1/users/${user.id}`)).headers.etag).toBe(etag);

    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const cached = await get(`/api/v1/users/${user.id}`, { "if-none-match": header });
      expect(cached.statusCode, header).toBe(304);
      expect(cached.body).toBe("");
      expect(cached.headers.etag).toBe(etag);
      expect(cached.headers["content-type"]).toBeUndefined();
    }
    expect((await get(`/api/v1/users/${user.id}`, { "if-none-match": '"stale"' })).statusCode).toBe(200);

    clock.advance(1_000);
    await patch(user.id, { name: "Changed" });
    const changed = await get(`/api/v1/users/${user.id}`, { "if-none-match": etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it("lists have an ETag too", async () => {
    const first = await get("/api/v1/users?per_page=1");
    const cached = await get("/api/v1/users?per_page=1", { "if-none-match": first.headers.etag as string });
    expect(cached.statusCode).toBe(304);
  });

  it("errors carry no ETag; a create carries its record's, as its GET answers (API.md §20 (e))", async () => {
    expect((await get("/api/v1/users/usr_00000000000000000000000000")).headers.etag).toBeUndefined();
    const created = await post({ name: "Tagged", email: uniqueEmail() });
    expect(created.headers.etag).toBe((await get(`/api/v1/users/${created.json().id}`)).headers.etag);
  });
});

describe("audit trail", () => {
  it("writes one row per write, with the key's name as actor and before/after", async () => {
    const created = await post({ name: "Audited", email: uniqueEmail() });
    const user = created.json();
    clock.advance(1_000);
    const updated = await patch(user.id, { name: "Audited Again" });
    const rows = await t.db.db
      .selectFrom("audit_events")
      .selectAll()
      .where("resource", "=", "user")
      .where("resource_id", "=", user.id)
      .orderBy("created_at")
      .execute();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      action: "user.create",
      actor_type: "api_key",
      actor_id: writer.id,
      actor_name: "HR sync",
      request_id: created.headers["request-id"],
      before: null,
      after: user,
    });
    expect(rows[1]).toMatchObject({
      action: "user.update",
      actor_name: "HR sync",
      request_id: updated.headers["request-id"],
      before: user,
      after: updated.json(),
    });
    expect(rows[1]!.created_at.toISOString()).toBe(clock.now().toISOString());
  });
});
