import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Draw } from "../../src/draws/index.js";
import type { Page } from "../../src/http/pagination.js";
import type { User } from "../../src/users/index.js";
import { createApiKey, createUser, errorOf } from "../factories.js";
import { Api, eventsOf, ok } from "../factories-commissions.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";
import { today } from "../payout-runs/support.js";
import { type SignedInSession, signedInAs } from "../sessions.js";

/** API.md §18 draws: create, read, end, forgive — fields, validation, roles and visibility. */

let t: TestApp;
let api: Api;
let rep: User;

const body = (over: Record<string, unknown> = {}) => ({
  user_id: rep.id,
  kind: "recoverable",
  amount: 2000,
  currency: "USD",
  period: "month",
  starts_on: "2026-01-01",
  ends_on: "2026-06-30",
  ...over,
});

beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  api = new Api(t);
  today(t, "2026-01-05");
  rep = await createUser(t, { name: "Rita Rep" });
});
afterAll(() => t.close());

describe("POST /draws", () => {
  it("creates a draw with exactly §18's fields, every period listed unsettled, and emits draw.created", async () => {
    const draw = ok<Draw>(await api.post("/draws", body()), 201);
    expect(draw.id).toMatch(/^draw_/);
    expect(draw).toMatchObject({
      user_id: rep.id,
      kind: "recoverable",
      amount: 2000,
      currency: "USD",
      period: "month",
      starts_on: "2026-01-01",
      ends_on: "2026-06-30",
      recovery_starts_on: "2026-01-01",
      status: "active",
      balance: 0,
      entries: [],
    });
    expect(draw.periods.map((p) => [p.period, p.earned, p.advance, p.payout_run_id])).toEqual(
      ["2026-01", "2026-02", "2026-03", "2026-04", "2026-05", "2026-06"].map((p) => [p, null, null, null]),
    );
    expect(Object.keys(draw).sort()).toEqual(
      [
        "id",
        "user_id",
        "kind",
        "amount",
        "currency",
        "period",
        "starts_on",
        "ends_on",
        "recovery_starts_on",
        "status",
        "balance",
        "periods",
        "entries",
        "created_at",
        "updated_at",
      ].sort(),
    );
    expect(ok<Draw>(await api.get(`/draws/${draw.id}`))).toEqual(draw);
    const events = await eventsOf(t, "draw.created");
    expect(events.map((e) => (e.object as Draw).id)).toContain(draw.id);
  });

  it("refuses an overlapping draw of the same person and currency with 409 conflict, not another currency", async () => {
    const res = await api.post("/draws", body({ starts_on: "2026-06-01", ends_on: "2026-09-30" }));
    expect([res.statusCode, errorOf(res).code]).toEqual([409, "conflict"]);
    ok(await api.post("/draws", body({ currency: "EUR", kind: "non_recoverable" })), 201);
  });

  it.each([
    [{ amount: 0 }, "amount"],
    [{ amount: 10.005 }, "amount"],
    [{ currency: "JPY", amount: 1000.5 }, "amount"],
    [{ starts_on: "2026-01-02" }, "starts_on"],
    [{ period: "quarter", starts_on: "2026-02-01", ends_on: "2026-06-30" }, "starts_on"],
    [{ ends_on: "2026-06-29" }, "ends_on"],
    [{ period: "quarter", ends_on: "2026-05-31" }, "ends_on"],
    [{ starts_on: "2026-07-01", ends_on: "2026-06-30" }, "ends_on"],
    [{ ends_on: "2037-01-31" }, "ends_on"],
    [{ kind: "non_recoverable", recovery_starts_on: "2026-02-01" }, "recovery_starts_on"],
    [{ recovery_starts_on: "2025-12-31" }, "recovery_starts_on"],
    [{ kind: "guaranteed" }, "kind"],
    [{ period: "year" }, "period"],
    [{ user_id: "usr_nobody" }, "user_id"],
    [{ balance: 5 }, "balance"],
  ])("%j → 422 naming %s, and writes nothing", async (over, param) => {
    const before = ok<Page<Draw>>(await api.get("/draws")).meta.total;
    const res = await api.post("/draws", body({ starts_on: "2027-01-01", ends_on: "2027-06-30", ...over }));
    expect([res.statusCode, errorOf(res).code], res.body).toEqual([422, "validation_error"]);
    expect(errorOf(res).details?.map((d) => d.param)).toContain(param);
    expect(ok<Page<Draw>>(await api.get("/draws")).meta.total).toBe(before);
  });

  it("accepts quarters, a later recovery start, and JPY without decimals", async () => {
    const other = await createUser(t);
    const q = ok<Draw>(
      await api.post("/draws", {
        ...body({ user_id: other.id, period: "quarter", ends_on: "2026-12-31", recovery_starts_on: "2026-07-01" }),
      }),
      201,
    );
    expect(q.periods.map((p) => p.period)).toEqual(["2026-Q1", "2026-Q2", "2026-Q3", "2026-Q4"]);
    expect(q.recovery_starts_on).toBe("2026-07-01");
    const jpy = ok<Draw>(await api.post("/draws", body({ user_id: other.id, currency: "JPY", amount: 300000 })), 201);
    expect(jpy.amount).toBe(300000);
    const nr = ok<Draw>(
      await api.post("/draws", body({ user_id: other.id, currency: "GBP", kind: "non_recoverable" })),
      201,
    );
    expect(nr.recovery_starts_on).toBeNull();
  });
});

describe("GET /draws", () => {
  it("filters by user_id, currency and status, newest first, paginated", async () => {
    const mine = ok<Page<Draw>>(await api.get(`/draws?user_id=${rep.id}`));
    expect(mine.data.map((d) => d.currency)).toEqual(["EUR", "USD"]);
    expect(ok<Page<Draw>>(await api.get(`/draws?user_id=${rep.id}&currency=USD`)).data).toHaveLength(1);
    expect(ok<Page<Draw>>(await api.get(`/draws?user_id=${rep.id}&status=ended`)).meta.total).toBe(0);
    const page = ok<Page<Draw>>(await api.get("/draws?per_page=1&page=2"));
    expect(page.data).toHaveLength(1);
    expect(page.meta.per_page).toBe(1);
    const bad = await api.get("/draws?status=open");
    expect([bad.statusCode, errorOf(bad).details?.[0]?.param]).toEqual([422, "status"]);
  });
});

describe("POST /draws/{id}/end and /forgive", () => {
  let draw: Draw;
  beforeAll(async () => {
    const who = await createUser(t);
    draw = ok<Draw>(await api.post("/draws", body({ user_id: who.id })), 201);
  });

  it("end sets ends_on; after ends_on or before the day before starts_on → 422; status ended once it passed", async () => {
    const late = await api.post(`/draws/${draw.id}/end`, { effective_date: "2026-07-31" });
    expect([late.statusCode, errorOf(late).details?.[0]?.param]).toEqual([422, "effective_date"]);
    const early = await api.post(`/draws/${draw.id}/end`, { effective_date: "2025-12-30" });
    expect(early.statusCode).toBe(422);
    const ended = ok<Draw>(await api.post(`/draws/${draw.id}/end`, { effective_date: "2026-03-15" }));
    expect(ended.ends_on).toBe("2026-03-15");
    expect(ended.periods.map((p) => p.period)).toEqual(["2026-01", "2026-02"]);
    expect(ended.status).toBe("active");
    today(t, "2026-03-16");
    expect(ok<Draw>(await api.get(`/draws/${draw.id}`)).status).toBe("ended");
    expect(ok<Page<Draw>>(await api.get(`/draws?status=ended`)).data.map((d) => d.id)).toContain(draw.id);
    today(t, "2026-01-05");
    expect((await eventsOf(t, "draw.ended")).map((e) => (e.object as Draw).id)).toContain(draw.id);
  });

  it("forgive: zero balance or a non-recoverable draw → 422; unknown → 404", async () => {
    const zero = await api.post(`/draws/${draw.id}/forgive`, { reason: "welcome" });
    expect([zero.statusCode, errorOf(zero).code]).toEqual([422, "validation_error"]);
    const nr = ok<Page<Draw>>(await api.get(`/draws?user_id=${rep.id}&currency=EUR`)).data[0]!;
    expect((await api.post(`/draws/${nr.id}/forgive`, { reason: "x" })).statusCode).toBe(422);
    const missing = await api.post("/draws/draw_missing/forgive", { reason: "x" });
    expect([missing.statusCode, errorOf(missing).code]).toEqual([404, "not_found"]);
    const noReason = await api.post(`/draws/${draw.id}/forgive`, {});
    expect([noReason.statusCode, errorOf(noReason).details?.[0]?.param]).toEqual([422, "reason"]);
  });
});

describe("roles (API.md §11, §18)", () => {
  let sessions: Record<"admin" | "finance" | "manager" | "rep" | "other", SignedInSession>;
  let repDraw: Draw;
  beforeAll(async () => {
    const manager = await signedInAs(t, { role: "manager" });
    const repUnder = await signedInAs(t, { role: "rep", manager_id: manager.user.id });
    sessions = {
      admin: await signedInAs(t, { role: "admin" }),
      finance: await signedInAs(t, { role: "finance" }),
      manager,
      rep: repUnder,
      other: await signedInAs(t, { role: "rep" }),
    };
    repDraw = ok<Draw>(await api.post("/draws", body({ user_id: repUnder.user.id })), 201);
  });
  const as = (who: keyof typeof sessions, method: "GET" | "POST", url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: sessions[who].headers(method),
      ...(payload ? { payload } : {}),
    });

  it("finance and admins create, end and forgive; reps and managers get 403; read and write keys get 403", async () => {
    for (const who of ["finance", "admin"] as const) {
      const user = await createUser(t);
      const res = await as(who, "POST", "/draws", body({ user_id: user.id }));
      expect(res.statusCode, res.body).toBe(201);
    }
    for (const who of ["rep", "manager"] as const) {
      const res = await as(who, "POST", "/draws", body({ user_id: sessions[who].user.id, currency: "CAD" }));
      expect([res.statusCode, errorOf(res).code]).toEqual([403, "forbidden"]);
      const end = await as(who, "POST", `/draws/${repDraw.id}/end`, { effective_date: "2026-03-31" });
      expect(end.statusCode).toBe(403);
    }
    for (const scope of ["read", "write"] as const) {
      const key = await createApiKey(t, scope);
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/draws",
        headers: bearer(key.key),
        payload: body(),
      });
      expect([res.statusCode, errorOf(res).code]).toEqual([403, "forbidden"]);
    }
  });

  it("a rep sees their own draws, their manager the team's, another rep none (404)", async () => {
    for (const who of ["rep", "manager", "finance", "admin"] as const) {
      expect((await as(who, "GET", `/draws/${repDraw.id}`)).statusCode, who).toBe(200);
    }
    const other = await as("other", "GET", `/draws/${repDraw.id}`);
    expect([other.statusCode, errorOf(other).code]).toEqual([404, "not_found"]);
    const list = (await as("rep", "GET", "/draws")).json() as Page<Draw>;
    expect(list.data.map((d) => d.id)).toEqual([repDraw.id]);
    expect(list.meta.total).toBe(1);
    expect(((await as("other", "GET", "/draws")).json() as Page<Draw>).meta.total).toBe(0);
    expect(((await as("manager", "GET", "/draws")).json() as Page<Draw>).data.map((d) => d.id)).toEqual([repDraw.id]);
  });
});
