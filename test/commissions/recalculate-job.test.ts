import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recalculateJobHandler } from "../../src/commissions/index.js";
import { batchUsers, setBatchCredits, setInlineLimit } from "../../src/commissions/testing.js";
import type { CompPlanWritten } from "../../src/comp-plans/testing.js";
import type { Job } from "../../src/jobs/queue.js";
import { Api, createDeal, eventsOf, getDeal, ok, repOnPlan } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { runJobs as runJobsOf } from "../jobs-runner.js";

/**
 * Changes touching more lines than the inline limit (lowered here to 3) finish in a background job,
 * whose batches are lowered to ~2 credits so every job here runs in several transactions.
 */

describe("batchUsers", () => {
  const u = (user_id: string, credits: number) => ({ user_id, credits });
  it("packs consecutive users up to the credit limit, never splitting a user", () => {
    expect(batchUsers([u("a", 3), u("b", 4), u("c", 5), u("d", 1), u("e", 20), u("f", 0)], 8)).toEqual([
      ["a", "b"],
      ["c", "d"],
      ["e"],
      ["f"],
    ]);
  });
  it("counts a user with no pending credits (only a bucket to redo) as one", () => {
    expect(batchUsers([u("a", 0), u("b", 0), u("c", 0)], 2)).toEqual([["a", "b"], ["c"]]);
    expect(batchUsers([], 2)).toEqual([]);
  });
});

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
  setInlineLimit(3);
  setBatchCredits(2);
});
afterAll(async () => {
  setInlineLimit(1000);
  setBatchCredits(5000);
  await t.close();
});

const runJobs = () => runJobsOf(t.db.db, { recalculate: recalculateJobHandler });

const totals = async (ids: string[]) => Promise.all(ids.map(async (id) => (await getDeal(api, id)).total_commission));

describe("wide recalculations run as a job", () => {
  it("a plan edit over the limit commits at once, reads show the previous amounts until the job succeeds", async () => {
    const { user, plan } = await repOnPlan(api, { tiers: null, quota: null, base_rate: 0.1 });
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++)
      ids.push((await createDeal(api, user.id, { arr_amount: 10000, close_date: `2026-07-0${i}` })).id);
    const edited = ok<CompPlanWritten>(await api.patch(`/comp-plans/${plan.id}`, { base_rate: 0.2 }));
    expect(edited.version).toBe(2);
    const jobId = edited.recalculation_job_id;
    expect(jobId).toMatch(/^job_/);
    expect(ok<Job>(await api.get(`/jobs/${jobId}`))).toMatchObject({
      kind: "recalculate",
      status: "queued",
      total: 5,
      done: 0,
    });
    expect(await totals(ids)).toEqual([1000, 1000, 1000, 1000, 1000]);

    await runJobs();
    expect(ok<Job>(await api.get(`/jobs/${jobId}`))).toMatchObject({
      status: "succeeded",
      total: 5,
      done: 5,
      error: null,
    });
    expect(await totals(ids)).toEqual([2000, 2000, 2000, 2000, 2000]);
    const lines = (await eventsOf(t, "commission.calculated")).filter((e) => e.object.user_id === user.id);
    expect(lines.filter((e) => e.previous_amount === 1000).map((e) => e.object.amount)).toEqual([
      2000, 2000, 2000, 2000, 2000,
    ]);
    expect((await getDeal(api, ids[0]!)).commissions[0]!.plan_version).toBe(2);
  });

  it("a deal insert over the limit writes its own lines inline and moves the later deals in the job", async () => {
    const { user } = await repOnPlan(api);
    const later: string[] = [];
    for (let i = 1; i <= 4; i++)
      later.push((await createDeal(api, user.id, { arr_amount: 10000, close_date: `2026-08-0${i}` })).id);
    const early = await createDeal(api, user.id, { arr_amount: 100000, close_date: "2026-07-01" });
    expect(early.total_commission).toBe(10000);
    expect(early.recalculation_job_id).toMatch(/^job_/);
    expect(await totals(later)).toEqual([1000, 1000, 1000, 1000]);
    await runJobs();
    expect(ok<Job>(await api.get(`/jobs/${early.recalculation_job_id}`)).status).toBe("succeeded");
    expect(await totals(later)).toEqual([1500, 1500, 1500, 1500]);
  });

  it("a DELETE that starts a job names it in Recalculation-Job-Id", async () => {
    const { user } = await repOnPlan(api);
    const first = await createDeal(api, user.id, { arr_amount: 100000, close_date: "2026-07-01" });
    const later: string[] = [];
    for (let i = 2; i <= 5; i++)
      later.push((await createDeal(api, user.id, { arr_amount: 10000, close_date: `2026-07-0${i}` })).id);
    await runJobs();
    const res = await api.del(`/deals/${first.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.headers["recalculation-job-id"]).toMatch(/^job_/);
    await runJobs();
    expect(await totals(later)).toEqual([1000, 1000, 1000, 1000]);
  });
});
