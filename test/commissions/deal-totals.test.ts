import { sql } from "kysely";
import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { recalculateJobHandler } from "../../src/commissions/index.js";
import { setBatchCredits, setInlineLimit } from "../../src/commissions/testing.js";
import { jobsSource } from "../../src/jobs/jobs-source.js";
import { Worker } from "../../src/jobs/worker.js";
import { createUser } from "../factories.js";
import {
  Api,
  approveAsOwner,
  assign,
  createDeal,
  createPlan,
  getDeal,
  ok,
  rejectAsOwner,
  TIERS,
} from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";

/**
 * A deal's total_commission is Σ its non-void lines, always. Recalculations move a deal's total by what
 * they wrote (not by summing every line again), so this drives every writer of lines at once — plan
 * edits finishing in background jobs of tiny batches, deal edits, creates, rejections, approvals and
 * adjustments, on shared reps and split deals — and then checks every deal against its lines.
 */

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

async function openJobs(): Promise<number> {
  const rows = await t.db.db.selectFrom("jobs").select("id").where("status", "in", ["queued", "running"]).execute();
  return rows.length;
}

/** Deals whose total is not Σ of their non-void lines: [id, total, Σ]. */
async function driftingTotals(): Promise<string[][]> {
  const { rows } = await sql<{ id: string; total: string; sum: string }>`
    SELECT d.id, d.total_commission::text AS total, COALESCE(SUM(l.amount) FILTER (WHERE l.status <> 'void'), 0)::text AS sum
    FROM deals d LEFT JOIN commission_lines l ON l.deal_id = d.id
    GROUP BY d.id, d.total_commission
    HAVING d.total_commission <> COALESCE(SUM(l.amount) FILTER (WHERE l.status <> 'void'), 0)`.execute(t.db.db);
  return rows.map((r) => [r.id, r.total, r.sum]);
}

it("every deal's total equals Σ its non-void lines after racing recalculations, jobs and workflow writes", async () => {
  const plan = await createPlan(api, { quota: 50000, cap_per_period: 9000 });
  const reps = [await createUser(t), await createUser(t), await createUser(t)];
  const assignments = [];
  for (const rep of reps) assignments.push(await assign(api, plan.id, rep.id));
  const split = (a: number, b: number) => ({
    splits: [
      { user_id: reps[a]!.id, percent: 60 },
      { user_id: reps[b]!.id, percent: 40 },
    ],
  });
  const deals = [];
  for (let i = 0; i < 12; i++) {
    const extra = i % 3 === 0 ? split(i % 3, (i + 1) % 3) : {};
    deals.push(
      await createDeal(api, reps[i % 3]!.id, {
        arr_amount: 7000 + 1313 * i,
        close_date: `2026-0${7 + (i % 3)}-1${i % 9}`,
        ...extra,
      }),
    );
  }
  await approveAsOwner(t, deals[8]!.id);
  const logger = pino({ level: "silent" });
  const worker = new Worker({
    sources: [jobsSource({ db: t.db.db, handlers: { recalculate: recalculateJobHandler }, logger }) as never],
    logger,
    pollMs: 5,
  });
  worker.start();
  try {
    const bumped = TIERS.map((tier) => ({ ...tier, rate: tier.rate + 0.01 }));
    const results = await Promise.all([
      api.patch(`/comp-plans/${plan.id}`, { tiers: bumped }),
      api.patch(`/deals/${deals[1]!.id}`, { arr_amount: 23456.78 }),
      api.patch(`/deals/${deals[2]!.id}`, { close_date: "2026-07-01" }),
      api.post("/deals", { ...dealBodyFor(reps[0]!.id, 31000.5, "2026-08-03"), ...split(0, 2) }),
      rejectAsOwner(t, deals[4]!.id).then(() => null),
      approveAsOwner(t, deals[5]!.id).then(() => null),
      api.post("/commissions/adjustments", {
        deal_id: deals[8]!.id,
        user_id: reps[2]!.id,
        amount: -125.25,
        reason: "correction",
      }),
      api.patch(`/comp-plans/${plan.id}`, { cap_per_period: 20000 }),
      api.del(`/deals/${deals[7]!.id}`),
      // reps[1]'s plan ends with July: their August and September plan lines go.
      api.patch(`/plan-assignments/${assignments[1]!.id}`, { effective_to: "2026-07-31" }),
    ]);
    const statuses = results.map((r) => (r === null ? null : r.statusCode));
    expect(statuses).toEqual([200, 200, 200, 201, null, null, 201, 200, 204, 200]);
    for (let i = 0; i < 400 && (await openJobs()) > 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await openJobs()).toBe(0);
  } finally {
    await worker.stop(5000);
  }
  expect(await driftingTotals()).toEqual([]);
  // And the recalculations did reach every pending deal: its plan lines are at the plan's last version.
  const { rows } = await sql<{ version: number; n: string }>`
    SELECT l.plan_version AS version, count(*) AS n FROM commission_lines l JOIN deals d ON d.id = l.deal_id
    WHERE d.status = 'pending' AND l.kind = 'plan' AND l.plan_id = ${plan.id}
    GROUP BY l.plan_version`.execute(t.db.db);
  // 9 pending deals (12 − rejected − 2 approved − deleted + 1 created), 5 of them split 60/40: 14 credits,
  // less reps[1]'s two August deals, whose plan lines went with the end of their assignment.
  expect(rows.map((r) => [r.version, Number(r.n)])).toEqual([[3, 12]]);
});

function dealBodyFor(ownerId: string, arr: number, close: string) {
  return { opportunity_name: `Totals ${arr}`, arr_amount: arr, close_date: close, owner_id: ownerId };
}

it("an adjustment's deal and a rejected deal keep exact totals (a void line counts nothing)", async () => {
  const plan = await createPlan(api);
  const rep = await createUser(t);
  await assign(api, plan.id, rep.id);
  const approved = await createDeal(api, rep.id, { arr_amount: 12000 });
  const pending = await createDeal(api, rep.id, { arr_amount: 8000, close_date: "2026-07-20" });
  await approveAsOwner(t, approved.id);
  const body = { deal_id: approved.id, user_id: rep.id, amount: 50.5, reason: "bonus" };
  ok(await api.post("/commissions/adjustments", body), 201);
  expect(await driftingTotals()).toEqual([]);
  await rejectAsOwner(t, pending.id);
  expect(await driftingTotals()).toEqual([]);
});

it("a line the recalculation deletes leaves its deal's total (an assignment ended before the deal)", async () => {
  const plan = await createPlan(api);
  const rep = await createUser(t);
  const assignment = await assign(api, plan.id, rep.id);
  const kept = await createDeal(api, rep.id, { arr_amount: 10000, close_date: "2026-07-10" });
  const lost = await createDeal(api, rep.id, { arr_amount: 20000, close_date: "2026-08-10" });
  expect((await getDeal(api, lost.id)).total_commission).toBe(2000);
  ok(await api.patch(`/plan-assignments/${assignment.id}`, { effective_to: "2026-07-31" }));
  expect([(await getDeal(api, kept.id)).total_commission, (await getDeal(api, lost.id)).total_commission]).toEqual([
    1000, 0,
  ]);
  expect(await driftingTotals()).toEqual([]);
});
