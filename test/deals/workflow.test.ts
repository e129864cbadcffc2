import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Statement } from "../../src/commissions/index.js";
import type { DealDetail } from "../../src/deals/index.js";
import { createUser, errorOf } from "../factories.js";
import {
  Api,
  approveAsOwner,
  createDeal,
  eventsOf,
  getDeal,
  ok,
  rejectAsOwner,
  repOnPlan,
} from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";

let t: TestApp;
let admin: Api;
let clock: TestClock;
beforeAll(async () => {
  clock = new TestClock();
  t = await createTestApp({ clock });
  admin = new Api(t, "admin");
});
afterAll(() => t.close());

const auditOf = (dealId: string) =>
  t.db.db
    .selectFrom("audit_events")
    .select(["action", "before", "after", "actor_id"])
    .where("resource_id", "=", dealId)
    .orderBy("id")
    .execute();

const linesOf = (dealId: string) =>
  t.db.db.selectFrom("commission_lines").select(["status", "locked", "amount"]).where("deal_id", "=", dealId).execute();

async function pendingDeal(overrides: Record<string, unknown> = {}) {
  const { user } = await repOnPlan(admin);
  return createDeal(admin, user.id, overrides);
}

describe("POST /deals/{id}/approve", () => {
  it("pending → approved: approved_at, lines locked, deal.approved, an audit row", async () => {
    const deal = await pendingDeal();
    clock.advance(1000);
    const approved = ok<DealDetail>(await admin.post(`/deals/${deal.id}/approve`));
    expect(approved).toMatchObject({ id: deal.id, status: "approved", total_commission: 1000 });
    expect(approved.approved_at).toBe(new Date(clock.ms).toISOString());
    expect(approved.commissions.map((c) => [c.status, c.locked])).toEqual([["approved", true]]);
    const event = (await eventsOf(t, "deal.approved")).find((e) => e.object.id === deal.id);
    expect(event?.object).toMatchObject({ status: "approved", total_commission: 1000 });
    expect(event?.object.commissions).toBeUndefined();
    const rows = (await auditOf(deal.id)).filter((r) => r.action === "deal.approve");
    expect(rows).toHaveLength(1);
    expect([(rows[0]!.before as DealDetail).status, (rows[0]!.after as DealDetail).status]).toEqual([
      "pending",
      "approved",
    ]);
  });

  it("a later change in the period leaves the approved deal's lines alone", async () => {
    const { user } = await repOnPlan(admin);
    const first = await createDeal(admin, user.id, { close_date: "2026-07-20" });
    ok<DealDetail>(await admin.post(`/deals/${first.id}/approve`));
    await createDeal(admin, user.id, { close_date: "2026-07-01", arr_amount: 95000 });
    expect((await getDeal(admin, first.id)).commissions[0]).toMatchObject({ amount: 1000, locked: true });
  });

  it.each(["approved", "disputed", "paid"] as const)(
    "a %s deal → 409 naming the status, nothing written",
    async (status) => {
      const deal = await pendingDeal();
      await approveAsOwner(t, deal.id, status);
      const audits = (await auditOf(deal.id)).length;
      const events = (await eventsOf(t, "deal.approved")).length;
      const res = await admin.post(`/deals/${deal.id}/approve`);
      expect(res.statusCode).toBe(409);
      expect(errorOf(res)).toMatchObject({
        code: "invalid_transition",
        message: `Deal ${deal.id} is ${status}; only pending deals can be approved`,
      });
      expect((await auditOf(deal.id)).length).toBe(audits);
      expect((await eventsOf(t, "deal.approved")).length).toBe(events);
      expect((await getDeal(admin, deal.id)).status).toBe(status);
    },
  );

  it("a rejected deal → 409", async () => {
    const deal = await pendingDeal();
    await rejectAsOwner(t, deal.id);
    const res = await admin.post(`/deals/${deal.id}/approve`);
    expect([res.statusCode, errorOf(res).message]).toEqual([
      409,
      `Deal ${deal.id} is rejected; only pending deals can be approved`,
    ]);
  });

  it("a write key → 403 and the deal stays pending", async () => {
    const deal = await pendingDeal();
    const res = await new Api(t, "write").post(`/deals/${deal.id}/approve`);
    expect(res.statusCode).toBe(403);
    expect((await getDeal(admin, deal.id)).status).toBe("pending");
  });
});

describe("POST /deals/{id}/reject", () => {
  it("pending → rejected: reason, lines void, total 0, deal.rejected, an audit row", async () => {
    const deal = await pendingDeal();
    const rejected = ok<DealDetail>(
      await admin.post(`/deals/${deal.id}/reject`, { reason: "duplicate of another deal" }),
    );
    expect(rejected).toMatchObject({
      status: "rejected",
      rejection_reason: "duplicate of another deal",
      total_commission: 0,
      approved_at: null,
    });
    expect(rejected.commissions.map((c) => c.status)).toEqual(["void"]);
    const event = (await eventsOf(t, "deal.rejected")).find((e) => e.object.id === deal.id);
    expect(event?.object).toMatchObject({ status: "rejected", total_commission: 0 });
    expect((await auditOf(deal.id)).map((r) => r.action)).toContain("deal.reject");
  });

  it("requires a reason and takes no other field", async () => {
    const deal = await pendingDeal();
    for (const body of [{}, { reason: "" }, { reason: "x", note: "y" }]) {
      const res = await admin.post(`/deals/${deal.id}/reject`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
    }
    expect((await getDeal(admin, deal.id)).status).toBe("pending");
  });

  it("recalculates the later pending deals without it; editing it resubmits and recalculates again", async () => {
    const { user } = await repOnPlan(admin);
    const early = await createDeal(admin, user.id, { close_date: "2026-07-01", arr_amount: 80000 });
    const late = await createDeal(admin, user.id, { close_date: "2026-07-15", arr_amount: 40000 });
    const withEarly = (await getDeal(admin, late.id)).total_commission;
    expect(withEarly).toBeGreaterThan(4000);
    ok<DealDetail>(await admin.post(`/deals/${early.id}/reject`, { reason: "wrong quarter" }));
    expect((await getDeal(admin, late.id)).total_commission).toBe(4000);
    const statement = ok<Statement>(await admin.get(`/users/${user.id}/statement?period=2026-Q3`));
    expect(statement.totals.total).toBe(4000);

    const resubmitted = ok<DealDetail>(await admin.patch(`/deals/${early.id}`, {}));
    expect(resubmitted).toMatchObject({ status: "pending", rejection_reason: null, total_commission: 8000 });
    expect(resubmitted.commissions.map((c) => c.status)).toEqual(["pending"]);
    expect((await getDeal(admin, late.id)).total_commission).toBe(withEarly);
  });

  it.each(["approved", "paid"] as const)("a %s deal → 409, its lines untouched", async (status) => {
    const deal = await pendingDeal();
    await approveAsOwner(t, deal.id, status);
    const res = await admin.post(`/deals/${deal.id}/reject`, { reason: "late" });
    expect([res.statusCode, errorOf(res).code]).toEqual([409, "invalid_transition"]);
    expect(errorOf(res).message).toBe(`Deal ${deal.id} is ${status}; only pending deals can be rejected`);
    expect((await linesOf(deal.id)).map((l) => l.status)).toEqual([status]);
  });

  it("a rejected deal → 409", async () => {
    const deal = await pendingDeal();
    ok<DealDetail>(await admin.post(`/deals/${deal.id}/reject`, { reason: "a" }));
    const res = await admin.post(`/deals/${deal.id}/reject`, { reason: "b" });
    expect(errorOf(res).message).toBe(`Deal ${deal.id} is rejected; only pending deals can be rejected`);
    expect((await getDeal(admin, deal.id)).rejection_reason).toBe("a");
  });
});

describe("POST /deals/{id}/mark-paid", () => {
  it("approved → paid: paid_at, lines paid, deal.paid, an audit row", async () => {
    const deal = await pendingDeal();
    ok<DealDetail>(await admin.post(`/deals/${deal.id}/approve`));
    clock.advance(5000);
    const paid = ok<DealDetail>(await admin.post(`/deals/${deal.id}/mark-paid`));
    expect(paid).toMatchObject({ status: "paid", total_commission: 1000 });
    expect(paid.paid_at).toBe(new Date(clock.ms).toISOString());
    expect(paid.commissions.map((c) => [c.status, c.locked])).toEqual([["paid", true]]);
    expect((await eventsOf(t, "deal.paid")).some((e) => e.object.id === deal.id)).toBe(true);
    expect((await auditOf(deal.id)).map((r) => r.action)).toEqual(["deal.create", "deal.approve", "deal.mark_paid"]);
  });

  it.each(["pending", "rejected", "disputed", "paid"] as const)("a %s deal → 409 naming it", async (status) => {
    const deal = await pendingDeal();
    if (status === "rejected") await rejectAsOwner(t, deal.id);
    else if (status !== "pending") await approveAsOwner(t, deal.id, status);
    const res = await admin.post(`/deals/${deal.id}/mark-paid`);
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toMatchObject({
      code: "invalid_transition",
      message: `Deal ${deal.id} is ${status}; only approved deals can be marked paid`,
    });
    expect((await getDeal(admin, deal.id)).paid_at).toBe(status === "paid" ? new Date(clock.ms).toISOString() : null);
  });

  it("an unknown deal → 404", async () => {
    const user = await createUser(t);
    expect(user.id).toBeTruthy();
    const res = await admin.post("/deals/deal_unknown/mark-paid");
    expect([res.statusCode, errorOf(res).code]).toEqual([404, "not_found"]);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("concurrent transitions (PostgreSQL)", () => {
  it("10 concurrent approvals of one deal: exactly one 200, the rest 409", async () => {
    const deal = await pendingDeal();
    const apis = Array.from({ length: 10 }, () => new Api(t, "admin"));
    const results = await Promise.all(apis.map((api) => api.post(`/deals/${deal.id}/approve`)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, ...Array(9).fill(409)]);
    for (const r of results.filter((r) => r.statusCode === 409)) {
      expect(errorOf(r).message).toBe(`Deal ${deal.id} is approved; only pending deals can be approved`);
    }
    expect((await auditOf(deal.id)).filter((r) => r.action === "deal.approve")).toHaveLength(1);
    expect((await eventsOf(t, "deal.approved")).filter((e) => e.object.id === deal.id)).toHaveLength(1);
  });

  it("concurrent approve and reject: exactly one wins", async () => {
    const deal = await pendingDeal();
    const [a, r] = await Promise.all([
      new Api(t, "admin").post(`/deals/${deal.id}/approve`),
      new Api(t, "admin").post(`/deals/${deal.id}/reject`, { reason: "race" }),
    ]);
    expect([a.statusCode, r.statusCode].sort()).toEqual([200, 409]);
    const final = await getDeal(admin, deal.id);
    expect(final.status).toBe(a.statusCode === 200 ? "approved" : "rejected");
  });
});
