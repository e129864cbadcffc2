import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Commission, Preview, Statement } from "../../src/commissions/index.js";
import { allLines } from "../../src/commissions/testing.js";
import type { Page } from "../../src/http/pagination.js";
import type { SpiffWritten } from "../../src/spiffs/testing.js";
import { createUser, unknownId } from "../factories.js";
import {
  Api,
  approveAsOwner,
  assign,
  createDeal,
  createPlan,
  dealBody,
  ok,
  rejectAsOwner,
  repOnPlan,
} from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";

let t: TestApp;
let admin: Api;
let reader: Api;
beforeAll(async () => {
  t = await createTestApp();
  admin = new Api(t);
  reader = new Api(t, "read");
});
afterAll(() => t.close());

/** Every export opens with a UTF-8 BOM (#13.35). */
const HEADER =
  "\uFEFFid,deal_id,user_id,kind,period,amount,status,plan_id,spiff_id,calculated_at,explanation_summary,currency";
const csvLine = (c: Commission, summary: string) =>
  [
    c.id,
    c.deal_id,
    c.user_id,
    c.kind,
    c.period,
    c.amount.toFixed(2),
    c.status,
    c.plan_id ?? "",
    c.spiff_id ?? "",
    c.calculated_at,
    summary,
    c.currency,
  ].join(",");

describe("GET /commissions", () => {
  it("filters by user, deal, status, kind and period", async () => {
    const { user } = await repOnPlan(admin, { tiers: null, quota: null, base_rate: 0.1 });
    const a = await createDeal(admin, user.id, { close_date: "2026-07-01" });
    const b = await createDeal(admin, user.id, { close_date: "2026-10-01" });
    await approveAsOwner(t, a.id);
    const ids = async (query: string) =>
      ok<Page<Commission>>(await reader.get(`/commissions?user_id=${user.id}&${query}`)).data.map((c) => c.deal_id);
    expect(await ids("")).toEqual([b.id, a.id]);
    expect(await ids(`deal_id=${a.id}`)).toEqual([a.id]);
    expect(await ids("status=approved")).toEqual([a.id]);
    expect(await ids("status=approved,pending")).toEqual([b.id, a.id]);
    expect(await ids("kind=spiff")).toEqual([]);
    expect(await ids("period=2026-Q4")).toEqual([b.id]);
    const bad = await reader.get("/commissions?period=2026-Q5");
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.details[0].param).toBe("period");
    const line = ok<Page<Commission>>(await reader.get(`/commissions?deal_id=${a.id}`)).data[0]!;
    expect(ok<Commission>(await reader.get(`/commissions/${line.id}`))).toEqual(line);
    expect((await reader.get(`/commissions/${unknownId("com")}`)).statusCode).toBe(404);
  });

  it("Accept: text/csv streams every matching line (no pagination) as RFC 4180 CSV; Vary: Accept always", async () => {
    const plan = await createPlan(admin, { tiers: null, quota: null, base_rate: 0.1 });
    const user = await createUser(t);
    await assign(admin, plan.id, user.id);
    const spiffBody = {
      name: 'Q3 "push", big',
      starts_on: "2026-07-01",
      ends_on: "2026-07-31",
      criteria: { user_ids: [user.id] },
    };
    ok<SpiffWritten>(await admin.post("/spiffs", { ...spiffBody, payout: { type: "flat", amount: 100 } }), 201);
    const deal = await createDeal(admin, user.id, { arr_amount: 12345.67, close_date: "2026-07-10" });
    const csv = await reader.get(`/commissions?user_id=${user.id}&per_page=1`, { accept: "text/csv" });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers.vary).toBe("Accept, Accept-Encoding");
    const listed = ok<Page<Commission>>(await reader.get(`/commissions?user_id=${user.id}`)).data;
    expect(listed.map((c) => [c.deal_id, c.kind])).toEqual([
      [deal.id, "plan"],
      [deal.id, "spiff"],
    ]);
    expect(csv.body).toBe(
      `${HEADER}\r\n` +
        `${csvLine(listed[0]!, '"12,345.67 × 10% = 1,234.57"')}\r\n` +
        `${csvLine(listed[1]!, '"SPIFF ""Q3 ""push"", big"": flat 100.00 × 100% split = 100.00"')}\r\n`,
    );
    const json = await reader.get(`/commissions?user_id=${user.id}`, { accept: "application/json, text/csv" });
    expect([json.headers["content-type"], json.headers.vary]).toEqual([
      "application/json; charset=utf-8",
      "Accept, Accept-Encoding",
    ]);
    expect(
      (await reader.get(`/commissions?user_id=${user.id}`, { accept: "text/csv;q=0.5, application/json" })).json().data,
    ).toHaveLength(2);
    expect(
      (await reader.get(`/commissions?user_id=${user.id}`, { accept: "text/csv, */*;q=0.1" })).body.startsWith(HEADER),
    ).toBe(true);
    const empty = await reader.get("/commissions?user_id=usr_nobody", { accept: "text/csv" });
    expect(empty.body).toBe(`${HEADER}\r\n`);
  });

  it("the export pages through the database by keyset: every line once, in list order", async () => {
    const { user } = await repOnPlan(admin, { tiers: null, quota: null, base_rate: 0.1 });
    for (let i = 0; i < 5; i++) await createDeal(admin, user.id, { close_date: `2026-07-0${i + 1}` });
    const pages: string[][] = [];
    const query = { user_id: user.id, page: 1, per_page: 25 };
    for await (const page of allLines(t.db.db, query, null, 2)) pages.push(page.map((c) => c.id));
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    const listed = ok<Page<Commission>>(await reader.get(`/commissions?user_id=${user.id}`)).data.map((c) => c.id);
    expect(pages.flat()).toEqual(listed);
  });
});

describe("GET /users/{id}/statement", () => {
  it("sums the period's non-void lines by kind, with quota and attainment per plan", async () => {
    const { user, plan } = await repOnPlan(admin);
    const window = { starts_on: "2026-08-01", ends_on: "2026-08-31", criteria: { user_ids: [user.id] } };
    ok<SpiffWritten>(
      await admin.post("/spiffs", { name: "Aug", ...window, payout: { type: "flat", amount: 250 } }),
      201,
    );
    const first = await createDeal(admin, user.id, { arr_amount: 90000, close_date: "2026-07-01" });
    const second = await createDeal(admin, user.id, { arr_amount: 30000, close_date: "2026-08-15" });
    const rejected = await createDeal(admin, user.id, { arr_amount: 5000, close_date: "2026-09-01" });
    await rejectAsOwner(t, rejected.id);
    await createDeal(admin, user.id, { arr_amount: 1000, close_date: "2026-10-01" });
    await approveAsOwner(t, first.id);
    const statement = ok<Statement>(await reader.get(`/users/${user.id}/statement?period=2026-Q3`));
    expect(statement.user_id).toBe(user.id);
    expect(statement.period).toBe("2026-Q3");
    expect(statement.plans).toEqual([
      {
        plan_id: plan.id,
        plan_name: plan.name,
        plan_version: 1,
        currency: "USD",
        period_kind: "quarter",
        quota: 100000,
        attainment: 120000,
        attainment_ratio: 1.2,
        tiers: [
          { from_attainment: 0, rate: 0.1 },
          { from_attainment: 1, rate: 0.15 },
        ],
        current_rate: 0.15,
        cap_per_period: null,
        earned: 13000,
        cap_reached: false,
        next_tier: null,
      },
    ]);
    expect(statement.lines.map((l) => [l.deal_id, l.kind, l.amount, l.status])).toEqual([
      [first.id, "plan", 9000, "approved"],
      [second.id, "plan", 4000, "pending"],
      [second.id, "spiff", 250, "pending"],
    ]);
    expect(statement.totals).toEqual({
      plan: 13000,
      spiff: 250,
      override: 0,
      adjustment: 0,
      clawback: 0,
      draw: 0,
      total: 13250,
    });
    expect(statement.by_status).toEqual({ pending: 4250, approved: 9000, paid: 0 });
    const csv = await reader.get(`/users/${user.id}/statement?period=2026-Q3`, { accept: "text/csv" });
    expect(csv.headers.vary).toBe("Accept, Accept-Encoding");
    expect(csv.body.split("\r\n")).toHaveLength(5);
    expect(csv.body.split("\r\n")[0]).toBe(HEADER);
    expect(csv.body.split("\r\n")[2]).toBe(
      csvLine(statement.lines[1]!, '"10,000.00 × 10% + 20,000.00 × 15% = 4,000.00"'),
    );
  });

  it("needs a valid period and a real user", async () => {
    const user = await createUser(t);
    const missing = await reader.get(`/users/${user.id}/statement`);
    expect([missing.statusCode, missing.json().error.details[0].param]).toEqual([422, "period"]);
    expect((await reader.get(`/users/${user.id}/statement?period=Q3-2026`)).statusCode).toBe(422);
    expect((await reader.get(`/users/${unknownId("usr")}/statement?period=2026-Q3`)).statusCode).toBe(404);
    const empty = ok<Statement>(await reader.get(`/users/${user.id}/statement?period=2026`));
    // No plan and no line: the statement's currency is the documented fallback (API.md §15).
    expect(empty).toEqual({
      user_id: user.id,
      period: "2026",
      currency: "USD",
      plans: [],
      lines: [],
      draw_lines: [],
      totals: { plan: 0, spiff: 0, override: 0, adjustment: 0, clawback: 0, draw: 0, total: 0 },
      totals_by_currency: [],
      by_status: { pending: 0, approved: 0, paid: 0 },
    });
    for (const currency of ["usd", "XYZ", "EURO"]) {
      const bad = await reader.get(`/users/${user.id}/statement?period=2026&currency=${currency}`);
      expect([bad.statusCode, bad.json().error.code, bad.json().error.details[0].param]).toEqual([
        422,
        "validation_error",
        "currency",
      ]);
    }
    expect(ok<Statement>(await reader.get(`/users/${user.id}/statement?period=2026&currency=JPY`)).currency).toBe(
      "JPY",
    );
  });
});

describe("POST /commissions/preview", () => {
  const counts = async () =>
    Promise.all(
      (["deals", "commission_lines", "events", "audit_events"] as const).map(async (table) =>
        Number(
          (
            await t.db.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<string>().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        ),
      ),
    );

  it("returns what creating the deal would earn, writing nothing (a read key suffices)", async () => {
    const { user } = await repOnPlan(admin);
    await createDeal(admin, user.id, { arr_amount: 90000, close_date: "2026-07-01" });
    const before = await counts();
    const preview = ok<Preview>(await reader.post("/commissions/preview", dealBody(user.id, { arr_amount: 30000 })));
    expect(await counts()).toEqual(before);
    expect(preview.total_commission).toBe(4000);
    expect(preview.explanation).toBeNull();
    expect(preview.lines).toHaveLength(1);
    const created = await createDeal(admin, user.id, { arr_amount: 30000 });
    const { id: _id, deal_id: _deal, status: _s, locked: _l, calculated_at: _c, ...stored } = created.commissions[0]!;
    const { payout_run_id: _run, draw_id: _draw, ...line } = stored;
    expect(preview.lines[0]).toEqual(line);
  });

  it("plan_id tries a draft plan for every credited user; no plan in force is explained", async () => {
    const user = await createUser(t);
    const draft = await createPlan(admin, { status: "draft", tiers: null, quota: null, base_rate: 0.3 });
    const without = ok<Preview>(await reader.post("/commissions/preview", dealBody(user.id)));
    expect(without).toEqual({
      lines: [],
      total_commission: 0,
      explanation: {
        summary: `no plan in force for ${user.id}: no plan assignment in force on 2026-07-15`,
        no_plan: [{ user_id: user.id, reason: "no plan assignment in force on 2026-07-15" }],
      },
    });
    const tried = ok<Preview>(await reader.post("/commissions/preview", { ...dealBody(user.id), plan_id: draft.id }));
    expect(tried.lines.map((l) => [l.plan_id, l.amount])).toEqual([[draft.id, 3000]]);
    const unknown = await reader.post("/commissions/preview", { ...dealBody(user.id), plan_id: unknownId("plan") });
    expect([unknown.statusCode, unknown.json().error.details[0].param]).toEqual([422, "plan_id"]);
    const invalid = await reader.post("/commissions/preview", dealBody(user.id, { arr_amount: -1 }));
    expect(invalid.json().error.details[0].param).toBe("arr_amount");
  });
});
