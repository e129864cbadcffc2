import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, getDeal, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { createRun, finalizeRun, payeeOf, today } from "../payout-runs/support.js";

/** Override lines go through the pay cycle with their deal (API.md §16 with §13 and §14), to the cent. */

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  api = new Api(t);
});
afterAll(() => t.close());

describe("override lines in the pay cycle", () => {
  it("are paid in a payout run with their deal, then clawed back by the override plan's policy", async () => {
    today(t, "2026-01-05");
    const max = await createUser(t, { name: "Max", role: "manager" });
    const rui = await createUser(t, { name: "Rui" });
    ok(await api.patch(`/users/${rui.id}`, { manager_id: max.id, manager_effective_from: "2026-01-01" }));
    const plan = ok<{ id: string }>(
      await api.post("/comp-plans", {
        name: "Max override",
        kind: "override",
        period: "quarter",
        effective_from: "2026-01-01",
        override_levels: [{ depth: 1, rate: 0.03 }],
        clawback: { window_days: 365, percent: 100, proration: "none" },
      }),
      201,
    );
    await assign(api, plan.id, max.id);
    today(t, "2026-02-10");
    const deal = await createDeal(api, rui.id, { arr_amount: 12345.67, close_date: "2026-02-10" });
    const line = deal.commissions.find((l) => l.kind === "override")!;
    // 12,345.67 × 3% = 370.3701 → 370.37
    expect(line).toMatchObject({ user_id: max.id, amount: 370.37, status: "pending" });
    await approveAsOwner(t, deal.id);

    today(t, "2026-03-01");
    const run = await createRun(api, { through: "2026-02-28", pay_date: "2026-03-05", user_ids: [max.id] });
    const payee = payeeOf(run, max.id);
    expect(payee.gross.override).toBe(370.37);
    expect(payee.lines_total).toBe(370.37);
    expect(payee.net_pay).toBe(370.37);
    await finalizeRun(api, run.id);
    const paid = (await getDeal(api, deal.id)).commissions.find((l) => l.kind === "override")!;
    expect(paid.status).toBe("paid");
    expect(paid.payout_run_id).toBe(run.id);

    today(t, "2026-03-20");
    ok(await api.post(`/deals/${deal.id}/cancel`, { reason: "Churned", effective_date: "2026-03-20" }));
    const after = await getDeal(api, deal.id);
    const clawbacks = after.commissions.filter((l) => l.kind === "clawback").map((l) => [l.user_id, l.amount]);
    expect(clawbacks).toEqual([[max.id, -370.37]]);
    const statement = ok<{ totals: Record<string, number> }>(
      await api.get(`/users/${max.id}/statement?period=2026-Q1`),
    );
    expect(statement.totals).toEqual({
      plan: 0,
      spiff: 0,
      override: 370.37,
      adjustment: 0,
      clawback: -370.37,
      draw: 0,
      total: 0,
    });
  });
});
