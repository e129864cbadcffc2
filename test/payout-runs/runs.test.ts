import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Dispute } from "../../src/disputes/index.js";
import { createUser, errorOf, unknownId } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, eventsOf, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { signedInAs } from "../sessions.js";
import { createRun, finalizeRun, getRun, listRuns } from "./support.js";

/** POST /payout-runs' validation, the lifecycle's refusals, lists and pages, who may see runs (API.md §13). */

let t: TestApp;
let api: Api;
let planId: string;
beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  api = new Api(t);
  planId = (await createPlan(api, { tiers: null, quota: null, base_rate: 0.1 })).id;
});
afterAll(() => t.close());

/** A person on the 10 % plan with an approved deal of `arr` (a plan line of arr / 10), closed 2026-10-05. */
async function approvedEarner(arr = 10000) {
  const user = await createUser(t);
  await assign(api, planId, user.id);
  const deal = await createDeal(api, user.id, { arr_amount: arr, close_date: "2026-10-05" });
  await approveAsOwner(t, deal.id);
  return { userId: user.id, dealId: deal.id };
}

const dates = { through: "2026-11-22", pay_date: "2026-11-30" };
const create = (body: Record<string, unknown>) => api.post("/payout-runs", body);

describe("POST /payout-runs: 422s", () => {
  it.each([
    [{ through: "2026-11-23", pay_date: "2026-11-30" }, "through", "must not be after today (2026-11-22, UTC)"],
    [{ through: "2026-11-20", pay_date: "2026-11-19" }, "pay_date", "must not be before through (2026-11-20)"],
    [{ ...dates, user_ids: [] }, "user_ids", undefined],
    [{ ...dates, user_ids: Array.from({ length: 1001 }, (_, i) => `u${i}`) }, "user_ids", undefined],
    [{ ...dates, max_recovery_percent: 100.5 }, "max_recovery_percent", undefined],
    [{ ...dates, max_recovery_percent: -1 }, "max_recovery_percent", undefined],
    [{ ...dates, max_recovery_percent: 12.34567 }, "max_recovery_percent", "must have at most 4 decimal places"],
    [{ ...dates, currency: "usd" }, "currency", undefined],
    [{ through: "2026-11-22" }, "pay_date", undefined],
  ])("%# → 422 naming %s", async (body, param, message) => {
    const res = await create(body);
    expect([res.statusCode, errorOf(res).code, errorOf(res).details?.[0]?.param]).toEqual([
      422,
      "validation_error",
      param,
    ]);
    if (message) expect(errorOf(res).details?.[0]?.message).toBe(message);
  });

  it("unknown users → 422 naming each", async () => {
    const known = await createUser(t);
    const [a, b] = [unknownId("usr"), "usr_nobody"];
    const res = await create({ ...dates, user_ids: [known.id, a, b] });
    expect([res.statusCode, errorOf(res).details?.[0]?.param]).toEqual([422, "user_ids"]);
    expect(errorOf(res).message).toBe(`user_ids name users that do not exist: ${a}, ${b}`);
  });
});

describe("the lifecycle", () => {
  it("finalize or cancel twice, or the other after one → 409 invalid_transition naming the status", async () => {
    const finalized = await finalizeRun(
      api,
      (await createRun(api, { through: "2020-01-31", pay_date: "2020-02-01" })).id,
    );
    for (const action of ["finalize", "cancel"]) {
      const res = await api.post(`/payout-runs/${finalized.id}/${action}`);
      expect([res.statusCode, errorOf(res).code, errorOf(res).message]).toEqual([
        409,
        "invalid_transition",
        `Payout run ${finalized.id} is finalized; only draft runs can be ${action === "finalize" ? "finalized" : "cancelled"}`,
      ]);
    }
    const unknown = unknownId("prun");
    const res = await api.post(`/payout-runs/${unknown}/finalize`);
    expect([res.statusCode, errorOf(res).message]).toEqual([404, `Payout run ${unknown} not found`]);
  });

  it("a line is in one run: a second run skips what a draft holds, and takes it once that draft is cancelled", async () => {
    const { userId } = await approvedEarner();
    const first = await createRun(api, { ...dates, user_ids: [userId] });
    expect(first.payees.map((p) => p.net_pay)).toEqual([1000]);
    const second = await createRun(api, { ...dates, user_ids: [userId] });
    expect([second.payees, second.totals, second.lines.meta.total]).toEqual([[], [], 0]);
    ok(await api.post(`/payout-runs/${first.id}/cancel`));
    const third = await createRun(api, { ...dates, user_ids: [userId] });
    expect(third.payees.map((p) => p.net_pay)).toEqual([1000]);
  });

  it("pending deals' lines wait; a dispute opened after the snapshot does not stop finalize; resolving then pays", async () => {
    const { userId, dealId } = await approvedEarner(20000);
    const pending = await createDeal(api, userId, { arr_amount: 5000, close_date: "2026-10-06" });
    const run = await createRun(api, { ...dates, user_ids: [userId] });
    expect(run.lines.data.map((l) => [l.deal_id, l.amount])).toEqual([[dealId, 2000]]);
    const dispute = ok<Dispute>(await api.post(`/deals/${dealId}/disputes`, { reason: "other" }), 201);
    const paid = await finalizeRun(api, run.id);
    expect(paid.lines.data.map((l) => l.status)).toEqual(["paid"]);
    expect(ok<{ status: string }>(await api.get(`/deals/${dealId}`)).status).toBe("disputed");
    ok(await api.post(`/disputes/${dispute.id}/resolve`, { outcome: "denied" }));
    const deal = ok<{ status: string; paid_at: string }>(await api.get(`/deals/${dealId}`));
    expect([deal.status, deal.paid_at]).toEqual(["paid", "2026-11-22T10:00:00.000Z"]);
    expect((await eventsOf(t, "deal.paid")).map((e) => e.object.id)).toContain(dealId);
    expect(ok<{ status: string }>(await api.get(`/deals/${pending.id}`)).status).toBe("pending");
  });
});

describe("what finalize records of each deal it pays", () => {
  it("as mark-paid does: an audit row of the deal before and after, each person's line total, and deal.paid", async () => {
    const planned = await createUser(t);
    await assign(api, planId, planned.id);
    const unplanned = await createUser(t);
    const deal = await createDeal(api, planned.id, {
      opportunity_name: 'Zoë "Ärger" \\ Ltd — 株式会社',
      arr_amount: 12345.67,
      close_date: "2026-10-05",
      splits: [
        { user_id: planned.id, percent: 60 },
        { user_id: unplanned.id, percent: 40 },
      ],
    });
    await approveAsOwner(t, deal.id);
    // The deal as JavaScript rendered it on approval: finalize renders it in SQL, and must write the same.
    const approved = (await eventsOf(t, "deal.approved")).find((e) => e.object.id === deal.id)!.object;
    expect(approved.explanation).not.toBeNull();
    const run = await createRun(api, { ...dates, user_ids: [planned.id] });
    await finalizeRun(api, run.id);
    const at = new Date(t.clock!.ms).toISOString();
    const after = { ...approved, status: "paid", paid_at: at, updated_at: at };
    expect((await eventsOf(t, "deal.paid")).filter((e) => e.object.id === deal.id)).toEqual([{ object: after }]);
    const audits = await t.db.db
      .selectFrom("audit_events")
      .select(["resource_id", "action", "before", "after", "line_totals", "actor_id", "request_id"])
      .where("resource_id", "in", [deal.id, run.id])
      .where("action", "in", ["deal.mark_paid", "payout_run.finalize"])
      .orderBy("action")
      .execute();
    const [paid, finalized] = audits;
    // 12,345.67 × 60 % × 10 % = 740.7402 → 740.74, the planned person's one line.
    const totals = { [planned.id]: "740.74" };
    expect(paid).toEqual({
      resource_id: deal.id,
      action: "deal.mark_paid",
      before: approved,
      after,
      line_totals: { before: totals, after: totals },
      actor_id: finalized!.actor_id,
      request_id: finalized!.request_id,
    });
    expect(ok<Record<string, unknown>>(await api.get(`/deals/${deal.id}`))).toMatchObject(after);
  });
});

describe("reading runs", () => {
  it("lists newest first with status and currency filters; a run's lines page by user and kind", async () => {
    const a = await approvedEarner(10000);
    const b = await approvedEarner(30000);
    const run = await createRun(api, { ...dates, currency: "USD", user_ids: [a.userId, b.userId] });
    const [newest] = (await listRuns(api, "?status=draft&currency=USD")).data;
    expect(newest).toMatchObject({ id: run.id, status: "draft", currency: "USD" });
    expect(newest).not.toHaveProperty("payees");
    expect((await listRuns(api, "?currency=EUR")).data.map((r) => r.id)).not.toContain(run.id);
    const page = await getRun(api, run.id, `?per_page=1&page=2`);
    const byUser = [a.userId, b.userId].sort();
    expect([page.lines.meta, page.lines.data.map((l) => l.user_id)]).toEqual([
      { page: 2, per_page: 1, total: 2 },
      [byUser[1]],
    ]);
    expect((await getRun(api, run.id, `?user_id=${b.userId}`)).lines.data.map((l) => l.amount)).toEqual([3000]);
    expect((await getRun(api, run.id, "?kind=adjustment")).lines.meta.total).toBe(0);
    expect(run.totals).toEqual([
      {
        currency: "USD",
        payees: 2,
        lines: 2,
        lines_total: 4000,
        recovered: 0,
        net_pay: 4000,
        deficit_carried_forward: 0,
      },
    ]);
  });

  it("people: finance reads and creates; a rep or manager is refused (403), even for an unknown run", async () => {
    const finance = await signedInAs(t, { role: "finance" });
    const listed = await t.app.inject({ method: "GET", url: "/api/v1/payout-runs", headers: finance.headers("GET") });
    expect(listed.statusCode).toBe(200);
    const created = await t.app.inject({
      method: "POST",
      url: "/api/v1/payout-runs",
      headers: finance.headers("POST"),
      payload: { through: "2020-01-31", pay_date: "2020-02-01" },
    });
    expect([created.statusCode, created.json().created_by]).toEqual([201, finance.user.id]);
    for (const role of ["rep", "manager"] as const) {
      const session = await signedInAs(t, { role });
      for (const url of ["/api/v1/payout-runs", `/api/v1/payout-runs/${created.json().id}`, `/api/v1/payout-runs/x`]) {
        const res = await t.app.inject({ method: "GET", url, headers: session.headers("GET") });
        expect([res.statusCode, errorOf(res).message]).toEqual([
          403,
          `This action needs the admin or finance role; you are ${role}`,
        ]);
      }
    }
  });
});
