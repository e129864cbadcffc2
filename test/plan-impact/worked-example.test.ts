import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PlanImpact, requestPlanChangeImpact, UpdatePlanBody } from "../../src/comp-plans/index.js";
import { createUser } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, getDeal, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { countStatements } from "../statement-counter.js";

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(() => t.close());

describe("plan-change impact: the README's worked example", () => {
  it("a 10 % → 12 % rate change: impact, then the retroactive apply, then the statement", async () => {
    const rep = await createUser(t, { name: "Ada Rep" });
    const plan = await createPlan(api, { tiers: null, quota: null, base_rate: 0.1 });
    await assign(api, plan.id, rep.id);
    const approved = await createDeal(api, rep.id, {
      opportunity_name: "Acme platform",
      arr_amount: 50000,
      close_date: "2026-07-10",
    });
    await approveAsOwner(t, approved.id);
    const pending = await createDeal(api, rep.id, {
      opportunity_name: "Globex pilot",
      arr_amount: 20000,
      close_date: "2026-07-20",
    });
    expect((await getDeal(api, approved.id)).total_commission).toBe(5000);
    expect(pending.total_commission).toBe(2000);

    const impact = ok<PlanImpact>(await api.post(`/comp-plans/${plan.id}/impact`, { base_rate: 0.12 }));
    expect(impact.summary).toEqual({ users: 1, deals: 2, lines: 2, pending_delta: 400, locked_delta: 1000 });
    expect(impact.from_version).toBe(1);
    expect(impact.to_version).toBe(2);
    expect(impact.users).toEqual([
      {
        user_id: rep.id,
        name: "Ada Rep",
        periods: [{ period: "2026-Q3", pending: { before: 2000, after: 2400 }, locked: { before: 5000, after: 6000 } }],
      },
    ]);
    expect(impact.lines.data.map((l) => [l.deal_id, l.status, l.before, l.after, l.delta])).toEqual([
      [approved.id, "approved", 5000, 6000, 1000],
      [pending.id, "pending", 2000, 2400, 400],
    ]);
    // Each line names its deal as a person knows it, read with the page (not deal by deal).
    expect(impact.lines.data.map((l) => [l.deal_id, l.opportunity_name, l.close_date])).toEqual([
      [approved.id, "Acme platform", "2026-07-10"],
      [pending.id, "Globex pilot", "2026-07-20"],
    ]);
    // One read names a page's deals, whatever the page's size (no read per line).
    for (const per_page of [1, 2]) {
      const { result, sent } = await countStatements(t.db.db, (db) =>
        requestPlanChangeImpact({ ...t.ownerCtx(), db }, plan.id, UpdatePlanBody.parse({ base_rate: 0.12 }), {
          page: 1,
          per_page,
        }),
      );
      expect("answer" in result ? result.answer.lines.data : []).toHaveLength(per_page);
      expect(sent.sql.filter((q) => q.includes('"opportunity_name"'))).toHaveLength(1);
    }
    expect(impact.lines.data[0]!.explanation_after).toMatchObject({ plan_version: 2, amount: 6000 });
    expect(impact.lines.data[0]!.explanation_before).toMatchObject({ plan_version: 1, amount: 5000 });

    const applied = ok<{ version: number; retroactive_adjustments: { count: number; sum: number } }>(
      await api.patch(`/comp-plans/${plan.id}`, { base_rate: 0.12, retroactive: true }),
    );
    expect(applied.version).toBe(2);
    expect(applied.retroactive_adjustments).toEqual({ count: 1, sum: 1000 });
    const after = await getDeal(api, approved.id);
    expect(after.total_commission).toBe(6000);
    expect((await getDeal(api, pending.id)).total_commission).toBe(2400);
    const statement = ok<{
      lines: { kind: string; amount: number; explanation: Record<string, unknown> }[];
      totals: unknown;
    }>(await api.get(`/users/${rep.id}/statement?period=2026-Q3`));
    expect(statement.totals).toEqual({
      plan: 7400,
      spiff: 0,
      override: 0,
      adjustment: 1000,
      clawback: 0,
      draw: 0,
      total: 8400,
    });
    const adjustment = statement.lines.find((l) => l.kind === "adjustment")!;
    expect(adjustment.explanation.retroactive).toMatchObject({ plan_id: plan.id, from_version: 1, to_version: 2 });

    const again = ok<PlanImpact>(await api.post(`/comp-plans/${plan.id}/impact`, { base_rate: 0.12 }));
    expect(again.summary.lines).toBe(0);
  });
});
