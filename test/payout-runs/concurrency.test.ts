import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PayoutRunDetail } from "../../src/payout-runs/index.js";
import { createUser, errorOf } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, eventsOf, ok } from "../factories-commissions.js";
import { createTestApp, POSTGRES_URL, type TestApp, TestClock } from "../harness.js";
import { createRun } from "./support.js";

/**
 * Payout runs under concurrency (API.md §13): of concurrent finalizes and cancels one wins, the rest 409;
 * creations take turns, so no line is in two runs; mark-paid refuses lines a draft holds. On PostgreSQL the
 * requests run on parallel pool connections; on PGlite (one connection) they serialize, same answers.
 */

let t: TestApp;
let api: Api;
let planId: string;
beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  api = new Api(t);
  planId = (await createPlan(api, { tiers: null, quota: null, base_rate: 0.1 })).id;
});
afterAll(() => t.close());

const dates = { through: "2026-11-22", pay_date: "2026-11-30" };

/** `count` approved deals of a new person on the 10 % plan (a plan line of 1,000.00 each). */
async function approvedDeals(count: number) {
  const user = await createUser(t);
  await assign(api, planId, user.id);
  const deals: string[] = [];
  for (let i = 0; i < count; i++) {
    const deal = await createDeal(api, user.id, { close_date: "2026-10-05" });
    await approveAsOwner(t, deal.id);
    deals.push(deal.id);
  }
  return { userId: user.id, deals };
}

describe(`concurrent payout runs (${POSTGRES_URL ? "PostgreSQL, parallel connections" : "PGlite, serialized"})`, () => {
  it("8 parallel finalizes of one run: exactly one 200, seven 409 invalid_transition; one event, lines paid once", async () => {
    const { userId, deals } = await approvedDeals(2);
    const run = await createRun(api, { ...dates, user_ids: [userId] });
    const apis = Array.from({ length: 8 }, () => new Api(t));
    const results = await Promise.all(apis.map((a) => a.post(`/payout-runs/${run.id}/finalize`)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, ...Array(7).fill(409)]);
    for (const r of results.filter((r) => r.statusCode === 409)) {
      expect(errorOf(r)).toMatchObject({
        code: "invalid_transition",
        message: `Payout run ${run.id} is finalized; only draft runs can be finalized`,
      });
    }
    const finalized = (await eventsOf(t, "payout_run.finalized")).filter((e) => e.object.id === run.id);
    expect(finalized).toHaveLength(1);
    const paid = (await eventsOf(t, "deal.paid")).map((e) => e.object.id);
    expect(deals.map((d) => paid.filter((p) => p === d).length)).toEqual([1, 1]);
  });

  it("finalize and cancel race: one wins, the other 409", async () => {
    const { userId } = await approvedDeals(1);
    const run = await createRun(api, { ...dates, user_ids: [userId] });
    const [a, b] = [new Api(t), new Api(t)];
    const results = await Promise.all([
      a.post(`/payout-runs/${run.id}/finalize`),
      b.post(`/payout-runs/${run.id}/cancel`),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const after = ok<PayoutRunDetail>(await api.get(`/payout-runs/${run.id}`));
    expect(after.status).toBe(results[0]!.statusCode === 200 ? "finalized" : "cancelled");
  });

  it("parallel creations never share a line; a run created while a draft holds lines never includes them", async () => {
    const people = await Promise.all([approvedDeals(2), approvedDeals(2)]);
    const ids = people.map((p) => p.userId);
    const held = await createRun(api, { ...dates, user_ids: [ids[0]!] });
    const apis = Array.from({ length: 6 }, () => new Api(t));
    const results = await Promise.all(apis.map((a) => a.post("/payout-runs", { ...dates, user_ids: ids })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    const runs = [held, ...results.map((r) => r.json() as PayoutRunDetail)];
    const lines = runs.flatMap((r) => r.lines.data.map((l) => l.id));
    expect(new Set(lines).size).toBe(lines.length);
    expect(lines).toHaveLength(4);
    const others = runs.slice(1).flatMap((r) => r.payees.map((p) => p.user_id));
    expect(others).toEqual([ids[1]]);
  });

  it("POST /deals/{id}/mark-paid with a line in a draft run → 409 conflict naming the run; after cancel it pays", async () => {
    const { userId, deals } = await approvedDeals(1);
    const run = await createRun(api, { ...dates, user_ids: [userId] });
    const refused = await api.post(`/deals/${deals[0]}/mark-paid`);
    expect([refused.statusCode, errorOf(refused).code]).toEqual([409, "conflict"]);
    expect(errorOf(refused).message).toBe(
      `Deal ${deals[0]} has lines in draft payout run ${run.id}; finalize or cancel the run first`,
    );
    ok(await api.post(`/payout-runs/${run.id}/cancel`));
    expect(ok<{ status: string }>(await api.post(`/deals/${deals[0]}/mark-paid`)).status).toBe("paid");
    const later = await createRun(api, { ...dates, user_ids: [userId] });
    expect(later.lines.meta.total).toBe(0);
  });

  it("mark-paid and a run's creation race over one deal: its lines are paid by exactly one of them", async () => {
    const { userId, deals } = await approvedDeals(1);
    const [paying, creating] = await Promise.all([
      new Api(t).post(`/deals/${deals[0]}/mark-paid`),
      new Api(t).post("/payout-runs", { ...dates, user_ids: [userId] }),
    ]);
    expect(creating.statusCode).toBe(201);
    const taken = (creating.json() as PayoutRunDetail).lines.meta.total;
    expect([paying.statusCode, taken]).toEqual(paying.statusCode === 200 ? [200, 0] : [409, 1]);
  });
});
