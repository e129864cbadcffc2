import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PlanImpact, requestPlanChangeImpact, UpdatePlanBody } from "../../src/comp-plans/index.js";
import type { Dispute } from "../../src/disputes/index.js";
import { createUser } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, getDeal, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { signedInAs } from "../sessions.js";
import { countStatements } from "../statement-counter.js";

/*
 * Issue #35 (bench/README.md "A plan's impact preview at this size"): a preview prices the plan's pending
 * lines and reprices its locked ones over the same people's buckets. Each side had read every credit of
 * those buckets (at 2,000,000 deals: 44,000 credits, 1.1–2.3 s each); they now share one read. A locked
 * line is repriced at what the rep is owed for it today: its amount, the deal's dispute resolutions for
 * the rep and its retroactive corrections (found by the credit's adjustment lines, migration 026). The
 * inline-or-job test counts an active plan's lines from an index instead of counting its pending credits
 * before reading them; a draft plan's activation still counts its people's pending credits.
 */

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(() => t.close());

/** The statements that read bucket entries (every credit of a user's buckets with its locked line). */
const entryReads = (sql: string[]) => sql.filter((q) => q.includes("jsonb_to_recordset") && q.includes("deal_splits"));
/** The statements over the plan's pending credits: counting them (the inline-or-job test) or reading them. */
const creditStatements = (sql: string[]) =>
  sql
    .filter((q) => /from "deal_splits" as "s" inner join "deals" as "d"/.test(q))
    .map((q) => (/^select count\(\*\)/.test(q) ? "count" : "read"));

describe("a plan's impact reads its buckets' entries once", () => {
  it("pending and locked sides from one read; locked amounts include disputes and corrections", async () => {
    const rep = await createUser(t, { name: "Once Rep" });
    const plan = await createPlan(api, { tiers: null, quota: null, base_rate: 0.1 });
    await assign(api, plan.id, rep.id);
    // Q3: one approved (1,000 at 10 %), one pending (2,000); Q4: one approved (500), one pending (300).
    const locked = await createDeal(api, rep.id, { arr_amount: 10000, close_date: "2026-07-10" });
    await approveAsOwner(t, locked.id);
    const pending = await createDeal(api, rep.id, { arr_amount: 20000, close_date: "2026-07-20" });
    const lockedQ4 = await createDeal(api, rep.id, { arr_amount: 5000, close_date: "2026-10-05" });
    await approveAsOwner(t, lockedQ4.id);
    const pendingQ4 = await createDeal(api, rep.id, { arr_amount: 3000, close_date: "2026-10-06" });

    // The rep disputes the Q3 approved deal: 1,000 → 1,050 (an adjustment of +50 for the rep).
    const session = await signedInAs(t, rep);
    const opened = ok<Dispute>(
      await t.app.inject({
        method: "POST",
        url: `/api/v1/deals/${locked.id}/disputes`,
        headers: session.headers("POST"),
        payload: { reason: "wrong_amount", expected_amount: 1050 },
      }),
      201,
    );
    ok<Dispute>(await api.post(`/disputes/${opened.id}/resolve`, { outcome: "approved" }));
    expect((await getDeal(api, locked.id)).total_commission).toBe(1050);
    // 10 % → 12 %, retroactively: the Q3 line is owed 1,200 (its correction +150), Q4's 600 (+100).
    ok(await api.patch(`/comp-plans/${plan.id}`, { base_rate: 0.12, retroactive: true }));
    expect((await getDeal(api, locked.id)).total_commission).toBe(1200);

    const body = UpdatePlanBody.parse({ base_rate: 0.15 });
    const { result, sent } = await countStatements(t.db.db, (db) =>
      requestPlanChangeImpact({ ...t.ownerCtx(), db }, plan.id, body, { page: 1, per_page: 50 }),
    );
    const impact = "answer" in result ? result.answer : undefined;
    expect(impact?.summary).toEqual({ users: 1, deals: 4, lines: 4, pending_delta: 690, locked_delta: 450 });
    expect(impact?.users).toEqual([
      {
        user_id: rep.id,
        name: "Once Rep",
        periods: [
          { period: "2026-Q3", pending: { before: 2400, after: 3000 }, locked: { before: 1200, after: 1500 } },
          { period: "2026-Q4", pending: { before: 360, after: 450 }, locked: { before: 600, after: 750 } },
        ],
      },
    ]);
    expect(impact?.lines.data.map((l) => [l.deal_id, l.status, l.before, l.after])).toEqual([
      [pending.id, "pending", 2400, 3000],
      [locked.id, "approved", 1200, 1500],
      [lockedQ4.id, "approved", 600, 750],
      [pendingQ4.id, "pending", 360, 450],
    ]);
    // One read of the entries for both sides (it had been one for each: two); the pending credits read
    // once, not counted first (an active plan's size is its lines, from an index).
    expect(entryReads(sent.sql)).toHaveLength(1);
    expect(creditStatements(sent.sql)).toEqual(["read"]);
    // And the same answer over HTTP.
    expect(ok<PlanImpact>(await api.post(`/comp-plans/${plan.id}/impact?per_page=50`, { base_rate: 0.15 }))).toEqual(
      impact,
    );
  });
});
