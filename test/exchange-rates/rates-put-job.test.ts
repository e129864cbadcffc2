import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recalculateJobHandler } from "../../src/commissions/index.js";
import type { Deal } from "../../src/deals/index.js";
import type { Job } from "../../src/jobs/queue.js";
import { createUser } from "../factories.js";
import { Api, assign, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { runJobs as runJobsOf } from "../jobs-runner.js";

/**
 * API.md §15 and the job rules of §5: a rate PUT that makes 10,000 pending deals computable commits at
 * once with a recalculation job (over the inline limit of 1,000 lines); until the job succeeds reads show
 * the deals as they were; then every deal has its converted line and no missing pair.
 */

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(() => t.close());

const runJobs = () => runJobsOf(t.db.db, { recalculate: recalculateJobHandler }, 240_000);

const REPS = 10;
const DEALS_PER_REP = 1000;

/** Every deal of the data set, through the API's pages (100 a page). */
async function allDeals(query: string): Promise<Deal[]> {
  const deals: Deal[] = [];
  for (let page = 1; ; page++) {
    const body = ok<{ data: Deal[] }>(await api.get(`/deals?${query}&per_page=100&page=${page}`));
    deals.push(...body.data);
    if (body.data.length < 100) return deals;
  }
}

describe("a rate PUT over 10,000 pending deals", () => {
  it("recalculates them in a job: each EUR 1,000.00 deal on a USD plan at 10 % earns USD 108.70", async () => {
    // Flat 10 %: every deal earns the same, whatever the order the job's batches take.
    const plan = await createPlan(api, { currency: "USD", quota: null, tiers: null, base_rate: 0.1 });
    const reps = [];
    for (let r = 0; r < REPS; r++) {
      const rep = await createUser(t);
      await assign(api, plan.id, rep.id);
      reps.push(rep);
    }
    for (const [r, rep] of reps.entries()) {
      const deals = Array.from({ length: DEALS_PER_REP }, (_, i) => ({
        external_id: `fx-${r}-${i}`,
        opportunity_name: `FX ${r}-${i}`,
        arr_amount: 1000,
        currency: "EUR",
        close_date: `2026-03-${String(10 + (i % 5)).padStart(2, "0")}`,
        owner_id: rep.id,
      }));
      ok(await api.post("/deals/bulk", { deals }));
    }
    const waiting = `owner_id=${reps[0]!.id}&fx_missing=true`;
    expect(await allDeals(waiting)).toHaveLength(DEALS_PER_REP);

    const put = ok<{ recalculation_job_id: string | null }>(
      await api.put("/exchange-rates/2026-03-09", { base: "USD", rates: { EUR: "0.92" } }),
      201,
    );
    expect(put.recalculation_job_id).toMatch(/^job_/);
    // Committed at once; the deals read as they were until the job succeeds (§5's job rules).
    expect(ok<Job>(await api.get(`/jobs/${put.recalculation_job_id}`))).toMatchObject({
      kind: "recalculate",
      status: "queued",
      total: REPS * DEALS_PER_REP,
    });
    expect(await allDeals(waiting)).toHaveLength(DEALS_PER_REP);

    await runJobs();
    expect(ok<Job>(await api.get(`/jobs/${put.recalculation_job_id}`))).toMatchObject({
      status: "succeeded",
      done: REPS * DEALS_PER_REP,
    });
    const lines = await t.db.db
      .selectFrom("commission_lines")
      .select(["amount", "currency", "kind", "status"])
      .where("plan_id", "=", plan.id)
      .execute();
    expect(lines).toHaveLength(REPS * DEALS_PER_REP);
    expect(new Set(lines.map((l) => `${l.kind} ${Number(l.amount).toFixed(2)} ${l.currency} ${l.status}`))).toEqual(
      new Set(["plan 108.70 USD pending"]),
    );
    for (const rep of reps) expect(await allDeals(`owner_id=${rep.id}&fx_missing=true`)).toEqual([]);
    const one = (await allDeals(`owner_id=${reps[REPS - 1]!.id}&fx_missing=false`)).slice(0, 3);
    expect(one.map((d) => [d.total_commission, d.fx_missing])).toEqual([
      [108.7, []],
      [108.7, []],
      [108.7, []],
    ]);
  }, 600_000);
});
