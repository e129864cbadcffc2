import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DealDetail } from "../../src/deals/index.js";
import type { Dispute } from "../../src/disputes/index.js";
import type { Page } from "../../src/http/pagination.js";
import { errorOf } from "../factories.js";
import { Api, createDeal, eventsOf, getDeal, ok, repOnPlan } from "../factories-commissions.js";
import { createTestApp, POSTGRES_URL, type TestApp, TestClock } from "../harness.js";

/**
 * Concurrent dispute transitions on one deal: exactly one wins, the rest get 409. On PostgreSQL the
 * requests run on parallel pool connections; on PGlite (one connection) they serialize, same answers.
 */

let t: TestApp;
let admin: Api;
beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  admin = new Api(t, "admin");
});
afterAll(() => t.close());

const N = 10;

/** An approved deal of 10,000 ARR at 10 %: total_commission 1000. */
async function approvedDeal() {
  const { user } = await repOnPlan(admin);
  const deal = await createDeal(admin, user.id);
  ok<DealDetail>(await admin.post(`/deals/${deal.id}/approve`));
  return deal;
}

const auditActions = (ids: string[]) =>
  t.db.db.selectFrom("audit_events").select("action").where("resource_id", "in", ids).execute();

describe(`concurrent disputes (${POSTGRES_URL ? "PostgreSQL, parallel connections" : "PGlite, serialized"})`, () => {
  it(`${N} concurrent POST /deals/{id}/disputes on one approved deal: exactly one 201, the rest 409`, async () => {
    const deal = await approvedDeal();
    const apis = Array.from({ length: N }, () => new Api(t, "write"));
    const results = await Promise.all(
      apis.map((api, i) =>
        api.post(`/deals/${deal.id}/disputes`, { reason: "wrong_amount", expected_amount: 1100 + i }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, ...Array(N - 1).fill(409)]);
    for (const r of results.filter((r) => r.statusCode === 409)) {
      expect(errorOf(r)).toMatchObject({
        code: "invalid_transition",
        message: `Deal ${deal.id} is disputed; only approved deals can be disputed`,
      });
    }
    const winner = results.find((r) => r.statusCode === 201)!.json();
    const disputes = ok<Page<Dispute>>(await admin.get(`/disputes?deal_id=${deal.id}`));
    expect(disputes.data).toEqual([winner]);
    expect((await getDeal(admin, deal.id)).status).toBe("disputed");
    expect((await eventsOf(t, "dispute.opened")).filter((e) => e.object.deal_id === deal.id)).toHaveLength(1);
    expect((await eventsOf(t, "deal.disputed")).filter((e) => e.object.id === deal.id)).toHaveLength(1);
    const actions = (await auditActions([deal.id, winner.id])).map((a) => a.action).sort();
    expect(actions).toEqual(["deal.approve", "deal.create", "deal.dispute", "dispute.open"]);
  });

  it(`${N} concurrent resolves of one dispute: exactly one 200, one adjustment line, the rest 409`, async () => {
    const deal = await approvedDeal();
    const dispute = ok<Dispute>(
      await admin.post(`/deals/${deal.id}/disputes`, { reason: "wrong_amount", expected_amount: 1200 }),
      201,
    );
    const apis = Array.from({ length: N }, () => new Api(t, "admin"));
    const results = await Promise.all(
      apis.map((api) => api.post(`/disputes/${dispute.id}/resolve`, { outcome: "approved", note: "agreed" })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, ...Array(N - 1).fill(409)]);
    for (const r of results.filter((r) => r.statusCode === 409)) {
      expect(errorOf(r)).toMatchObject({
        code: "invalid_transition",
        message: `Dispute ${dispute.id} is already resolved`,
      });
    }
    const winner = results.find((r) => r.statusCode === 200)!.json();
    expect(winner).toMatchObject({ status: "resolved", outcome: "approved", resolved_amount: 1200 });
    const after = await getDeal(admin, deal.id);
    expect([after.status, after.total_commission]).toEqual(["approved", 1200]);
    expect(after.commissions.map((c) => [c.kind, c.amount, c.status])).toEqual([
      ["plan", 1000, "approved"],
      ["adjustment", 200, "approved"],
    ]);
    expect((await eventsOf(t, "dispute.resolved")).filter((e) => e.object.id === dispute.id)).toHaveLength(1);
    const resolves = (await auditActions([dispute.id])).filter((a) => a.action === "dispute.resolve");
    expect(resolves).toHaveLength(1);
  });
});
