import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Statement } from "../../src/commissions/index.js";
import { type DealDetail, resolveDispute } from "../../src/deals/index.js";
import type { Dispute } from "../../src/disputes/index.js";
import type { Page } from "../../src/http/pagination.js";
import { createUser, errorOf } from "../factories.js";
import { Api, createDeal, eventsOf, getDeal, ok, repOnPlan } from "../factories-commissions.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";

let t: TestApp;
let admin: Api;
let writer: Api;
let deskKey: { id: string; key: string };
beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  admin = new Api(t, "admin");
  writer = new Api(t, "write");
  deskKey = await t.key("admin", "Dispute desk");
});
afterAll(() => t.close());

/** Resolves with the "Dispute desk" admin key, so explanations name a known author. */
const resolve = (id: string, body: Record<string, unknown>) =>
  t.app.inject({
    method: "POST",
    url: `/api/v1/disputes/${id}/resolve`,
    headers: bearer(deskKey.key),
    payload: body,
  });

/** The `commission.calculated` events raised for one deal's lines. */
const calculatedFor = async (dealId: string) =>
  (await eventsOf(t, "commission.calculated")).filter((e) => e.object.deal_id === dealId);

/** An approved deal of 10,000 ARR at 10 %: total_commission 1000. */
async function approvedDeal() {
  const { user } = await repOnPlan(admin);
  const deal = await createDeal(admin, user.id);
  ok<DealDetail>(await admin.post(`/deals/${deal.id}/approve`));
  return deal;
}

const open = (dealId: string, body: Record<string, unknown> = { reason: "wrong_amount", expected_amount: 1200 }) =>
  writer.post(`/deals/${dealId}/disputes`, body);

describe("POST /deals/{id}/disputes", () => {
  it("approved → disputed: 201 with the dispute, dispute.opened and deal.disputed, audit rows", async () => {
    const deal = await approvedDeal();
    const dispute = ok<Dispute>(
      await open(deal.id, { reason: "missing_tier", description: "Q3 accelerator", expected_amount: 1500 }),
      201,
    );
    expect(dispute).toMatchObject({
      deal_id: deal.id,
      reason: "missing_tier",
      description: "Q3 accelerator",
      expected_amount: 1500,
      status: "open",
      outcome: null,
      resolved_amount: null,
      resolved_at: null,
    });
    expect(dispute.id).toMatch(/^dsp_/);
    expect(dispute.opened_by_key_id).toMatch(/^key_/);
    expect((await getDeal(admin, deal.id)).status).toBe("disputed");
    expect((await eventsOf(t, "dispute.opened")).some((e) => e.object.id === dispute.id)).toBe(true);
    expect((await eventsOf(t, "deal.disputed")).some((e) => e.object.id === deal.id)).toBe(true);
    const actions = await t.db.db
      .selectFrom("audit_events")
      .select("action")
      .where("resource_id", "in", [deal.id, dispute.id])
      .execute();
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(["dispute.open", "deal.dispute"]));
    expect(ok<Dispute>(await writer.get(`/disputes/${dispute.id}`))).toEqual(dispute);
  });

  it.each(["pending", "rejected", "disputed", "paid"] as const)(
    "a %s deal → 409 naming it, nothing written",
    async (status) => {
      const { user } = await repOnPlan(admin);
      const deal = await createDeal(admin, user.id);
      if (status === "rejected") ok<DealDetail>(await admin.post(`/deals/${deal.id}/reject`, { reason: "x" }));
      if (status === "disputed" || status === "paid") ok<DealDetail>(await admin.post(`/deals/${deal.id}/approve`));
      if (status === "disputed") ok<Dispute>(await open(deal.id), 201);
      if (status === "paid") ok<DealDetail>(await admin.post(`/deals/${deal.id}/mark-paid`));
      const before = ok<Page<Dispute>>(await writer.get(`/disputes?deal_id=${deal.id}`)).meta.total;
      const res = await open(deal.id);
      expect(res.statusCode).toBe(409);
      expect(errorOf(res)).toMatchObject({
        code: "invalid_transition",
        message: `Deal ${deal.id} is ${status}; only approved deals can be disputed`,
      });
      expect(ok<Page<Dispute>>(await writer.get(`/disputes?deal_id=${deal.id}`)).meta.total).toBe(before);
    },
  );

  it("a disputed deal cannot be marked paid or edited", async () => {
    const deal = await approvedDeal();
    ok<Dispute>(await open(deal.id), 201);
    expect((await admin.post(`/deals/${deal.id}/mark-paid`)).statusCode).toBe(409);
    expect((await admin.patch(`/deals/${deal.id}`, { arr_amount: 1 })).statusCode).toBe(409);
  });
});

describe("POST /disputes/{id}/resolve", () => {
  it("approved defaults to expected_amount: an adjustment for the difference to the owner", async () => {
    const deal = await approvedDeal();
    const dispute = ok<Dispute>(await open(deal.id), 201);
    const before = await calculatedFor(deal.id);
    const resolved = ok<Dispute>(await resolve(dispute.id, { outcome: "approved", note: "agreed" }));
    expect(resolved).toMatchObject({
      status: "resolved",
      outcome: "approved",
      resolved_amount: 1200,
      resolution_note: "agreed",
    });
    const after = await getDeal(admin, deal.id);
    expect(after).toMatchObject({ status: "approved", total_commission: 1200 });
    const adjustment = after.commissions.find((c) => c.kind === "adjustment")!;
    const reason = `dispute ${dispute.id} resolved approved, total 1,000.00 → 1,200.00; note: agreed`;
    expect(adjustment).toEqual({
      id: expect.stringMatching(/^com_/),
      deal_id: deal.id,
      user_id: deal.owner_id,
      plan_id: null,
      plan_version: null,
      spiff_id: null,
      kind: "adjustment",
      period: "2026-Q3",
      amount: 200,
      status: "approved",
      locked: true,
      explanation: {
        summary: `Adjustment +200.00 by Dispute desk: ${reason}`,
        reason,
        author: { key_id: deskKey.id, name: "Dispute desk" },
        dispute: { id: dispute.id, outcome: "approved", previous_total: "1000.00", accepted_total: "1200.00" },
        period: "2026-Q3",
        amount: 200,
      },
      calculated_at: "2026-11-22T10:00:00.000Z",
      currency: "USD",
      payout_run_id: null,
      draw_id: null,
    });
    expect(await calculatedFor(deal.id)).toEqual([...before, { object: adjustment, previous_amount: null }]);
    const audits = await t.db.db
      .selectFrom("audit_events")
      .select(["action", "actor_id", "after"])
      .where("resource_id", "=", adjustment.id)
      .execute();
    expect(audits).toEqual([{ action: "commission.adjust", actor_id: deskKey.id, after: adjustment }]);
    expect((await eventsOf(t, "dispute.resolved")).some((e) => e.object.id === dispute.id)).toBe(true);
    const statement = ok<Statement>(await admin.get(`/users/${deal.owner_id}/statement?period=2026-Q3`));
    expect(statement.totals).toMatchObject({ adjustment: 200, total: 1200 });
    ok<DealDetail>(await admin.post(`/deals/${deal.id}/mark-paid`));
    const paid = await getDeal(admin, deal.id);
    expect(paid.commissions.map((c) => c.status)).toEqual(["paid", "paid"]);
  });

  it("partially_approved needs resolved_amount; a lower total gives a negative adjustment", async () => {
    const deal = await approvedDeal();
    const dispute = ok<Dispute>(await open(deal.id), 201);
    const missing = await resolve(dispute.id, { outcome: "partially_approved" });
    expect([missing.statusCode, errorOf(missing).details?.[0]?.param]).toEqual([422, "resolved_amount"]);
    ok<Dispute>(await resolve(dispute.id, { outcome: "partially_approved", resolved_amount: 900 }));
    const after = await getDeal(admin, deal.id);
    expect(after.total_commission).toBe(900);
    const adjustment = after.commissions.find((c) => c.kind === "adjustment")!;
    const reason = `dispute ${dispute.id} resolved partially_approved, total 1,000.00 → 900.00`;
    expect([adjustment.amount, adjustment.period]).toEqual([-100, "2026-Q3"]);
    expect(adjustment.explanation).toEqual({
      summary: `Adjustment -100.00 by Dispute desk: ${reason}`,
      reason,
      author: { key_id: deskKey.id, name: "Dispute desk" },
      dispute: { id: dispute.id, outcome: "partially_approved", previous_total: "1000.00", accepted_total: "900.00" },
      period: "2026-Q3",
      amount: -100,
    });
  });

  it("from the owner CLI: the author is owner-cli; with no plan line, the period is today's quarter", async () => {
    const deal = await createDeal(admin, (await createUser(t)).id); // no plan: no plan line
    ok<DealDetail>(await admin.post(`/deals/${deal.id}/approve`));
    const dispute = ok<Dispute>(await open(deal.id, { reason: "wrong_amount", expected_amount: 50.5 }), 201);
    const resolved = await resolveDispute(t.ownerCtx(), dispute.id, { outcome: "approved", note: "goodwill" });
    expect([resolved.status, resolved.resolved_amount]).toEqual(["resolved", 50.5]);
    const line = (await getDeal(admin, deal.id)).commissions.filter((c) => c.kind === "adjustment")[0]!;
    const reason = `dispute ${dispute.id} resolved approved, total 0.00 → 50.50; note: goodwill`;
    expect([line.amount, line.period, line.status, line.locked]).toEqual([50.5, "2026-Q4", "approved", true]);
    expect(line.explanation).toEqual({
      summary: `Adjustment +50.50 by owner-cli: ${reason}`,
      reason,
      author: { key_id: null, name: "owner-cli" },
      dispute: { id: dispute.id, outcome: "approved", previous_total: "0.00", accepted_total: "50.50" },
      period: "2026-Q4",
      amount: 50.5,
    });
    expect((await calculatedFor(deal.id)).filter((e) => e.object.id === line.id)).toEqual([
      { object: line, previous_amount: null },
    ]);
  });

  it("an accepted total equal to the current one writes no line and raises no commission.calculated", async () => {
    const deal = await approvedDeal();
    const dispute = ok<Dispute>(await open(deal.id), 201);
    const before = await calculatedFor(deal.id);
    ok<Dispute>(await resolve(dispute.id, { outcome: "approved", resolved_amount: 1000 }));
    const after = await getDeal(admin, deal.id);
    expect([after.status, after.total_commission, after.commissions.length]).toEqual(["approved", 1000, 1]);
    expect(await calculatedFor(deal.id)).toEqual(before);
  });

  it("denied changes no amount, takes no resolved_amount; a resolved dispute → 409", async () => {
    const deal = await approvedDeal();
    const dispute = ok<Dispute>(await open(deal.id), 201);
    const before = await calculatedFor(deal.id);
    const bad = await admin.post(`/disputes/${dispute.id}/resolve`, { outcome: "denied", resolved_amount: 5 });
    expect(bad.statusCode).toBe(422);
    expect((await getDeal(admin, deal.id)).status).toBe("disputed");
    const denied = ok<Dispute>(await admin.post(`/disputes/${dispute.id}/resolve`, { outcome: "denied" }));
    expect(denied).toMatchObject({ outcome: "denied", resolved_amount: null });
    const after = await getDeal(admin, deal.id);
    expect([after.status, after.total_commission, after.commissions.length]).toEqual(["approved", 1000, 1]);
    expect(await calculatedFor(deal.id)).toEqual(before);
    const again = await admin.post(`/disputes/${dispute.id}/resolve`, { outcome: "denied" });
    expect([again.statusCode, errorOf(again).code]).toEqual([409, "invalid_transition"]);
  });

  it("a write key → 403", async () => {
    const deal = await approvedDeal();
    const dispute = ok<Dispute>(await open(deal.id), 201);
    expect((await writer.post(`/disputes/${dispute.id}/resolve`, { outcome: "denied" })).statusCode).toBe(403);
  });
});

describe("GET /disputes", () => {
  it("filters by status and deal_id", async () => {
    const deal = await approvedDeal();
    const dispute = ok<Dispute>(await open(deal.id), 201);
    const list = ok<Page<Dispute>>(await writer.get(`/disputes?deal_id=${deal.id}&status=open`));
    expect(list.data.map((d) => d.id)).toEqual([dispute.id]);
    expect(ok<Page<Dispute>>(await writer.get(`/disputes?deal_id=${deal.id}&status=resolved`)).meta.total).toBe(0);
    expect((await writer.get("/disputes?status=closed")).statusCode).toBe(422);
  });
});
