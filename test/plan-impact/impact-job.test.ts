import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlanImpact } from "../../src/comp-plans/index.js";
import { planImpactJobHandler, setImpactInlineLimit } from "../../src/comp-plans/index.js";
import type { Job } from "../../src/jobs/queue.js";
import { createJob, createUser, errorOf, unknownId } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { runJobs as runJobsOf } from "../jobs-runner.js";
import { signedInAs } from "../sessions.js";

/**
 * Issue #16: an impact over more lines than the inline limit (lowered here to 3) answers 202 with a
 * `plan_impact` job, whose `result` is the answer the request would have given.
 */

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
  setImpactInlineLimit(3);
});
afterAll(async () => {
  setImpactInlineLimit(20_000);
  await t.close();
});

const runJobs = () => runJobsOf(t.db.db, { plan_impact: planImpactJobHandler });

/** A 10 % plan with 4 pending deals and 1 approved: 5 lines, over the limit of 3. */
async function planWithFiveLines() {
  const rep = await createUser(t, { name: "Job Rep" });
  const plan = await createPlan(api, { tiers: null, quota: null, base_rate: 0.1 });
  await assign(api, plan.id, rep.id);
  const approved = await createDeal(api, rep.id, { arr_amount: 50000, close_date: "2026-07-01" });
  await approveAsOwner(t, approved.id);
  for (let i = 2; i <= 5; i++) await createDeal(api, rep.id, { arr_amount: 10000, close_date: `2026-07-0${i}` });
  return plan;
}

const rowCounts = async () =>
  (
    await sql<{ lines: string; audit: string; plans: string; events: string }>`
      SELECT (SELECT count(*) FROM commission_lines) AS lines, (SELECT count(*) FROM audit_events) AS audit,
             (SELECT count(*) FROM comp_plans) AS plans, (SELECT count(*) FROM events) AS events`.execute(t.db.db)
  ).rows[0];

describe("POST /comp-plans/{id}/impact over the inline limit", () => {
  it("answers 202 with a plan_impact job whose result is the answer the request gives within the limit", async () => {
    const plan = await planWithFiveLines();
    const before = await rowCounts();
    const job = ok<Job>(await api.post(`/comp-plans/${plan.id}/impact?per_page=2`, { base_rate: 0.12 }), 202);
    expect(job).toMatchObject({ kind: "plan_impact", status: "queued", total: 5, done: 0, result: null });
    expect(ok<Job>(await api.get(`/jobs/${job.id}`))).toMatchObject({ status: "queued", result: null });
    await runJobs();
    const done = ok<Job>(await api.get(`/jobs/${job.id}`));
    expect(done).toMatchObject({ status: "succeeded", done: 5, error: null });
    const result = done.result as PlanImpact;
    expect(result.summary).toEqual({ users: 1, deals: 5, lines: 5, pending_delta: 800, locked_delta: 1000 });
    expect(result.lines.meta).toEqual({ page: 1, per_page: 2, total: 5 });
    expect(result.lines.data.map((l) => [l.status, l.before, l.after])).toEqual([
      ["approved", 5000, 6000],
      ["pending", 1000, 1200],
    ]);
    // Nothing but the job row was written; the same body within the limit answers the same.
    expect(await rowCounts()).toEqual(before);
    setImpactInlineLimit(5);
    try {
      expect(ok<PlanImpact>(await api.post(`/comp-plans/${plan.id}/impact?per_page=2`, { base_rate: 0.12 }))).toEqual(
        result,
      );
    } finally {
      setImpactInlineLimit(3);
    }
  });

  it("sizes a draft plan's activation by its people's pending credits (it has no lines yet)", async () => {
    const rep = await createUser(t, { name: "Draft Rep" });
    const plan = await createPlan(api, { tiers: null, quota: null, base_rate: 0.1, status: "draft" });
    await assign(api, plan.id, rep.id);
    for (let i = 1; i <= 4; i++) await createDeal(api, rep.id, { arr_amount: 10000, close_date: `2026-07-0${i}` });
    const job = ok<Job>(await api.post(`/comp-plans/${plan.id}/impact`, { status: "active" }), 202);
    expect(job).toMatchObject({ kind: "plan_impact", status: "queued", total: 4 });
    await runJobs();
    const result = ok<Job>(await api.get(`/jobs/${job.id}`)).result as PlanImpact;
    expect(result.summary).toEqual({ users: 1, deals: 4, lines: 4, pending_delta: 4000, locked_delta: 0 });
  });

  it("checks the body and the plan before queuing: 422 and 404 as within the limit, and no job", async () => {
    const plan = await planWithFiveLines();
    const jobs = async () =>
      Number((await sql<{ n: string }>`SELECT count(*) AS n FROM jobs`.execute(t.db.db)).rows[0]!.n);
    const queued = await jobs();
    const bad = await api.post(`/comp-plans/${plan.id}/impact`, { tiers: [{ from_attainment: 0.5, rate: 0.1 }] });
    expect(bad.statusCode).toBe(422);
    const unknown = await api.post("/comp-plans/plan_00000000000000000000000000/impact", { base_rate: 0.12 });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown).code).toBe("not_found");
    expect(await jobs()).toBe(queued);
  });

  it("answers an edit that moves no line within the request, however large the plan", async () => {
    const plan = await planWithFiveLines();
    const impact = ok<PlanImpact>(await api.post(`/comp-plans/${plan.id}/impact`, { name: "Renamed" }));
    expect(impact.summary).toEqual({ users: 0, deals: 0, lines: 0, pending_delta: 0, locked_delta: 0 });
  });

  it("lets finance read the plan_impact job it was answered with, and no other job", async () => {
    const plan = await planWithFiveLines();
    const finance = await signedInAs(t, { role: "finance" });
    const post = await t.app.inject({
      method: "POST",
      url: `/api/v1/comp-plans/${plan.id}/impact`,
      headers: finance.headers("POST"),
      payload: { base_rate: 0.12 },
    });
    const job = ok<Job>(post, 202);
    await runJobs();
    const read = await t.app.inject({ method: "GET", url: `/api/v1/jobs/${job.id}`, headers: finance.headers("GET") });
    expect(ok<Job>(read)).toMatchObject({ kind: "plan_impact", status: "succeeded" });
    expect((ok<Job>(read).result as PlanImpact).summary.locked_delta).toBe(1000);
    const other = await createJob(t, "recalculate");
    const refused = await t.app.inject({
      method: "GET",
      url: `/api/v1/jobs/${other.id}`,
      headers: finance.headers("GET"),
    });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).code).toBe("forbidden");
    const unknown = await t.app.inject({
      method: "GET",
      url: `/api/v1/jobs/${unknownId("job")}`,
      headers: finance.headers("GET"),
    });
    expect(unknown.statusCode).toBe(403);
  });
});
