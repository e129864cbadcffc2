import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompPlanWritten } from "../../src/comp-plans/testing.js";
import type { User } from "../../src/users/index.js";
import { createUser } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, getDeal, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { type ImpactLine, impactOf, storedLines, toCents } from "./helpers.js";

/*
 * API.md §12 with exact cents: each case states a plan, its deals (some locked), an edit, and what the
 * impact lists — then applies the edit and checks the stored amounts (and, with retroactive: true, the
 * adjustments and totals).
 */

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(() => t.close());

const BASE_10 = { tiers: null, quota: null, base_rate: 0.1 };

interface DealSpec {
  arr: number;
  on: string;
  lock?: boolean;
  type?: string;
  splits?: [number, number];
}

/** Reps on a new plan, and their deals (created in order; `lock` ones approved at once). */
async function world(planTerms: Record<string, unknown>, overrides: (number | null)[], deals: DealSpec[][]) {
  const plan = await createPlan(api, planTerms);
  const reps: User[] = [];
  for (const override of overrides) {
    const rep = await createUser(t);
    await assign(api, plan.id, rep.id, override === null ? {} : { quota_override: override });
    reps.push(rep);
  }
  const ids: string[][] = [];
  for (const [i, list] of deals.entries()) {
    const mine: string[] = [];
    for (const d of list) {
      const splits = d.splits && [
        { user_id: reps[i]!.id, percent: d.splits[0] },
        { user_id: reps[(i + 1) % reps.length]!.id, percent: d.splits[1] },
      ];
      const deal = await createDeal(api, reps[i]!.id, {
        arr_amount: d.arr,
        close_date: d.on,
        ...(d.type ? { deal_type: d.type } : {}),
        ...(splits ? { splits } : {}),
      });
      if (d.lock) await approveAsOwner(t, deal.id);
      mine.push(deal.id);
    }
    ids.push(mine);
  }
  return { plan, reps, deals: ids };
}

/** A line as [deal, user, status, before, after, delta]. */
const row = (l: ImpactLine) => [l.deal_id, l.user_id, l.status, l.before, l.after, l.delta];

async function total(dealId: string) {
  return (await getDeal(api, dealId)).total_commission;
}

async function apply(planId: string, body: Record<string, unknown>) {
  return ok<CompPlanWritten>(await api.patch(`/comp-plans/${planId}`, body));
}

describe("plan-change impact, case by case (exact cents)", () => {
  it("a cap used up by a locked line first; the retroactive correction may exceed the cap (§5 rule 7)", async () => {
    const { plan, reps, deals } = await world(
      { ...BASE_10, cap_per_period: 6000 },
      [null],
      [
        [
          { arr: 50000, on: "2026-07-10", lock: true },
          { arr: 20000, on: "2026-07-20" },
        ],
      ],
    );
    const [locked, pending] = deals[0]!;
    expect(await total(locked!)).toBe(5000);
    expect(await total(pending!)).toBe(1000); // the cap's remaining 1,000.00

    const { impact, lines } = await impactOf(api, plan.id, { base_rate: 0.12 });
    // The pending line stays cut at 1,000.00: the locked line keeps using 5,000.00 of the cap.
    expect(lines.map(row)).toEqual([[locked, reps[0]!.id, "approved", 5000, 6000, 1000]]);
    expect(impact.summary).toEqual({ users: 1, deals: 1, lines: 1, pending_delta: 0, locked_delta: 1000 });
    expect(impact.users[0]!.periods).toEqual([
      { period: "2026-Q3", pending: { before: 1000, after: 1000 }, locked: { before: 5000, after: 6000 } },
    ]);
    expect(lines[0]!.explanation_after).toMatchObject({ amount: 6000, cap: { limit: "6000" } });

    const applied = await apply(plan.id, { base_rate: 0.12, retroactive: true });
    expect(applied.retroactive_adjustments).toEqual({ count: 1, sum: 1000 });
    expect(await total(locked!)).toBe(6000);
    expect(await total(pending!)).toBe(1000);
    const statement = ok<{ totals: unknown }>(await api.get(`/users/${reps[0]!.id}/statement?period=2026-Q3`));
    expect(statement.totals).toEqual({
      plan: 6000,
      spiff: 0,
      override: 0,
      adjustment: 1000,
      clawback: 0,
      draw: 0,
      total: 7000,
    });
  });

  it("a cap lowered below what a locked line used: the locked line is cut, the pending one gets 0.00, never less", async () => {
    const { plan, reps, deals } = await world(
      { ...BASE_10, cap_per_period: 6000 },
      [null],
      [
        [
          { arr: 50000, on: "2026-07-10", lock: true },
          { arr: 20000, on: "2026-07-20" },
        ],
      ],
    );
    const [locked, pending] = deals[0]!;
    const rep = reps[0]!.id;
    const { impact, lines } = await impactOf(api, plan.id, { cap_per_period: 3000 });
    expect(lines.map(row)).toEqual([
      [locked, rep, "approved", 5000, 3000, -2000],
      [pending, rep, "pending", 1000, 0, -1000],
    ]);
    expect(impact.summary).toEqual({ users: 1, deals: 2, lines: 2, pending_delta: -1000, locked_delta: -2000 });

    const applied = await apply(plan.id, { cap_per_period: 3000, retroactive: true });
    expect(applied.retroactive_adjustments).toEqual({ count: 1, sum: -2000 });
    expect(await total(locked!)).toBe(3000);
    expect(await total(pending!)).toBe(0);
    const statement = ok<{ totals: unknown }>(await api.get(`/users/${rep}/statement?period=2026-Q3`));
    expect(statement.totals).toEqual({
      plan: 5000,
      spiff: 0,
      override: 0,
      adjustment: -2000,
      clawback: 0,
      draw: 0,
      total: 3000,
    });
  });

  it("tiers: a lower quota moves both deals across the 100 % band", async () => {
    const tiers = {
      quota: 100000,
      tiers: [
        { from_attainment: 0, rate: 0.1 },
        { from_attainment: 1, rate: 0.15 },
      ],
    };
    const { plan, reps, deals } = await world(
      tiers,
      [null],
      [
        [
          { arr: 70000, on: "2026-07-01", lock: true },
          { arr: 40000, on: "2026-07-15" },
        ],
      ],
    );
    const [locked, pending] = deals[0]!;
    const rep = reps[0]!.id;
    expect(await total(pending!)).toBe(4500); // 30,000 × 10 % + 10,000 × 15 %

    const { impact, lines } = await impactOf(api, plan.id, { quota: 60000 });
    expect(lines.map(row)).toEqual([
      [pending, rep, "pending", 4500, 6000, 1500], // all 40,000 above 60,000: × 15 %
      [locked, rep, "approved", 7000, 7500, 500], // 60,000 × 10 % + 10,000 × 15 %
    ]);
    expect(impact.summary).toEqual({ users: 1, deals: 2, lines: 2, pending_delta: 1500, locked_delta: 500 });

    const applied = await apply(plan.id, { quota: 60000 });
    expect(applied.retroactive_adjustments).toBeUndefined();
    expect(await total(pending!)).toBe(6000);
    expect(await total(locked!)).toBe(7000); // without retroactive, locked history stays as it was
  });

  it("deal-type multipliers: a renewal halves (pending), a new-business deal × 1.25 (locked)", async () => {
    const { plan, reps, deals } = await world(
      BASE_10,
      [null],
      [
        [
          { arr: 10000, on: "2026-07-01", type: "renewal" },
          { arr: 20000, on: "2026-07-02", type: "expansion" },
          { arr: 30000, on: "2026-07-03", type: "new_business", lock: true },
        ],
      ],
    );
    const [renewal, , newBusiness] = deals[0]!;
    const rep = reps[0]!.id;
    const edit = { deal_type_multipliers: { renewal: 0.5, new_business: 1.25 } };
    const { impact, lines } = await impactOf(api, plan.id, edit);
    expect(lines.map(row)).toEqual([
      [newBusiness, rep, "approved", 3000, 3750, 750],
      [renewal, rep, "pending", 1000, 500, -500],
    ]);
    expect(impact.summary).toEqual({ users: 1, deals: 2, lines: 2, pending_delta: -500, locked_delta: 750 });
    expect(lines[0]!.explanation_after).toMatchObject({ multiplier: "1.25", amount: 3750 });

    expect((await apply(plan.id, { ...edit, retroactive: true })).retroactive_adjustments).toEqual({
      count: 1,
      sum: 750,
    });
    expect(await total(renewal!)).toBe(500);
    expect(await total(newBusiness!)).toBe(3750);
  });

  it("a minimum deal amount: small deals go to 0.00 but their credit still counts toward attainment", async () => {
    const tiers = {
      quota: 20000,
      tiers: [
        { from_attainment: 0, rate: 0.1 },
        { from_attainment: 1, rate: 0.2 },
      ],
    };
    const { plan, reps, deals } = await world(
      tiers,
      [null],
      [
        [
          { arr: 5000, on: "2026-07-01", lock: true },
          { arr: 8000, on: "2026-07-02" },
          { arr: 20000, on: "2026-07-03" },
        ],
      ],
    );
    const [small, pendingSmall, big] = deals[0]!;
    const rep = reps[0]!.id;
    expect(await total(big!)).toBe(3300); // prior 13,000: 7,000 × 10 % + 13,000 × 20 %

    const { impact, lines } = await impactOf(api, plan.id, { min_deal_amount: 10000 });
    expect(lines.map(row)).toEqual([
      [pendingSmall, rep, "pending", 800, 0, -800],
      [small, rep, "approved", 500, 0, -500],
    ]);
    expect(impact.summary).toEqual({ users: 1, deals: 2, lines: 2, pending_delta: -800, locked_delta: -500 });

    expect((await apply(plan.id, { min_deal_amount: 10000, retroactive: true })).retroactive_adjustments).toEqual({
      count: 1,
      sum: -500,
    });
    expect(await total(small!)).toBe(0);
    expect(await total(pendingSmall!)).toBe(0);
    expect(await total(big!)).toBe(3300);
  });

  it("splits: each credited user's line moves on its own, rounded on its own", async () => {
    const { plan, reps, deals } = await world(
      BASE_10,
      [null, null],
      [
        [
          { arr: 30000, on: "2026-07-01", lock: true, splits: [50, 50] },
          { arr: 10001, on: "2026-07-02", splits: [50, 50] },
        ],
        [],
      ],
    );
    const [locked, pending] = deals[0]!;
    const [a, b] = [reps[0]!.id, reps[1]!.id];
    expect(await total(pending!)).toBe(1000.1); // 500.05 each

    const { impact, lines } = await impactOf(api, plan.id, { base_rate: 0.125 });
    const sorted = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r)).sort();
    expect(sorted(lines.map(row))).toEqual(
      sorted([
        [locked, a, "approved", 1500, 1875, 375],
        [locked, b, "approved", 1500, 1875, 375],
        [pending, a, "pending", 500.05, 625.06, 125.01], // 5,000.50 × 12.5 % = 625.0625
        [pending, b, "pending", 500.05, 625.06, 125.01],
      ]),
    );
    expect(lines.slice(0, 2).every((l) => l.delta === 375)).toBe(true);
    expect(impact.summary).toEqual({ users: 2, deals: 2, lines: 4, pending_delta: 250.02, locked_delta: 750 });

    expect((await apply(plan.id, { base_rate: 0.125, retroactive: true })).retroactive_adjustments).toEqual({
      count: 2,
      sum: 750,
    });
    expect(await total(locked!)).toBe(3750);
    expect(await total(pending!)).toBe(1250.12);
  });

  it("quota overrides: a plan quota change moves only the reps without one", async () => {
    const tiers = {
      quota: 100000,
      tiers: [
        { from_attainment: 0, rate: 0.1 },
        { from_attainment: 1, rate: 0.15 },
      ],
    };
    const { plan, reps, deals } = await world(
      tiers,
      [50000, null],
      [
        [
          { arr: 60000, on: "2026-07-01", lock: true },
          { arr: 20000, on: "2026-07-02" },
        ],
        [{ arr: 60000, on: "2026-07-01" }],
      ],
    );
    const [overridden, plain] = [deals[0]!, deals[1]![0]!];
    expect(await total(overridden[0]!)).toBe(6500); // 50,000 × 10 % + 10,000 × 15 %
    expect(await total(overridden[1]!)).toBe(3000);

    const { impact, lines } = await impactOf(api, plan.id, { quota: 40000 });
    expect(lines.map(row)).toEqual([[plain, reps[1]!.id, "pending", 6000, 7000, 1000]]);
    expect(impact.summary).toEqual({ users: 1, deals: 1, lines: 1, pending_delta: 1000, locked_delta: 0 });
    expect(lines[0]!.explanation_after).toMatchObject({ quota: "40000" });

    await apply(plan.id, { quota: 40000, retroactive: true });
    expect(await total(plain)).toBe(7000);
    expect(await total(overridden[0]!)).toBe(6500);
  });

  it("quarter → month: pending lines move period and attainment restarts; each period's sums balance", async () => {
    const tiers = {
      quota: 10000,
      tiers: [
        { from_attainment: 0, rate: 0.1 },
        { from_attainment: 1, rate: 0.2 },
      ],
    };
    const { plan, reps, deals } = await world(
      tiers,
      [null],
      [
        [
          { arr: 8000, on: "2026-07-10", lock: true },
          { arr: 8000, on: "2026-08-10" },
          { arr: 5000, on: "2026-08-20" },
        ],
      ],
    );
    const [, aug10, aug20] = deals[0]!;
    const rep = reps[0]!.id;
    expect(await total(aug10!)).toBe(1400);
    expect(await total(aug20!)).toBe(1000);

    const { impact, lines } = await impactOf(api, plan.id, { period: "month" });
    expect(lines.map((l) => [...row(l), l.period])).toEqual([
      [aug10, rep, "pending", 1400, 800, -600, "2026-08"],
      [aug20, rep, "pending", 1000, 800, -200, "2026-08"], // prior 8,000: 2,000 × 10 % + 3,000 × 20 %
    ]);
    expect(impact.summary).toEqual({ users: 1, deals: 2, lines: 2, pending_delta: -800, locked_delta: 0 });
    // The moved lines leave 2026-Q3 and arrive in 2026-08: both periods are shown, and they add up.
    expect(impact.users[0]!.periods).toEqual([
      { period: "2026-08", pending: { before: 0, after: 1600 }, locked: { before: 0, after: 0 } },
      { period: "2026-Q3", pending: { before: 2400, after: 0 }, locked: { before: 800, after: 800 } },
    ]);

    await apply(plan.id, { period: "month" });
    const stored = await storedLines(t, [aug10!, aug20!]);
    expect(stored.map((l) => [l.deal_id, l.period, toCents(l.amount)])).toEqual(
      expect.arrayContaining([
        [aug10, "2026-08", 80000],
        [aug20, "2026-08", 80000],
      ]),
    );
  });

  it("narrowed effective dates: a locked line outside them is repriced at 0.00, a pending one goes", async () => {
    const { plan, reps, deals } = await world(
      BASE_10,
      [null],
      [
        [
          { arr: 10000, on: "2026-07-10", lock: true },
          { arr: 12000, on: "2026-08-10" },
          { arr: 10000, on: "2026-06-10" },
        ],
      ],
    );
    const [locked, removed, kept] = deals[0]!;
    const rep = reps[0]!.id;
    const { impact, lines } = await impactOf(api, plan.id, { effective_to: "2026-06-30" });
    expect(lines.map(row)).toEqual([
      [removed, rep, "pending", 1200, 0, -1200],
      [locked, rep, "approved", 1000, 0, -1000],
    ]);
    expect(impact.summary).toEqual({ users: 1, deals: 2, lines: 2, pending_delta: -1200, locked_delta: -1000 });
    for (const line of lines) {
      expect(line.explanation_after).toEqual({
        summary: expect.stringMatching(/^no plan in force: /),
        reason: expect.any(String),
      });
    }

    const applied = await apply(plan.id, { effective_to: "2026-06-30", retroactive: true });
    expect(applied.retroactive_adjustments).toEqual({ count: 1, sum: -1000 });
    expect(await total(locked!)).toBe(0);
    expect(await total(removed!)).toBe(0);
    expect(await total(kept!)).toBe(1000);
    expect((await storedLines(t, [removed!])).filter((l) => l.kind === "plan")).toEqual([]);
  });

  it("status → archived: pending lines would earn nothing; locked history is not a status's to take back", async () => {
    const { plan, reps, deals } = await world(
      BASE_10,
      [null],
      [
        [
          { arr: 10000, on: "2026-07-10", lock: true },
          { arr: 20000, on: "2026-07-20" },
        ],
      ],
    );
    const [locked, pending] = deals[0]!;
    const rep = reps[0]!.id;
    const { impact, lines } = await impactOf(api, plan.id, { status: "archived", retroactive: true });
    expect([impact.from_version, impact.to_version]).toEqual([1, 1]);
    expect(lines.map(row)).toEqual([[pending, rep, "pending", 2000, 0, -2000]]);
    expect(impact.summary).toEqual({ users: 1, deals: 1, lines: 1, pending_delta: -2000, locked_delta: 0 });

    const applied = await apply(plan.id, { status: "archived", retroactive: true });
    expect(applied.version).toBe(1);
    expect(applied.retroactive_adjustments).toEqual({ count: 0, sum: 0 });
    expect(await total(pending!)).toBe(0);
    expect(await total(locked!)).toBe(1000);

    // New terms on the archived plan reprice its locked lines as they were earned (while it was active).
    const terms = await impactOf(api, plan.id, { base_rate: 0.12, retroactive: true });
    expect(terms.lines.map(row)).toEqual([[locked, rep, "approved", 1000, 1200, 200]]);
    expect(terms.impact.summary).toEqual({ users: 1, deals: 1, lines: 1, pending_delta: 0, locked_delta: 200 });
    const corrected = await apply(plan.id, { base_rate: 0.12, retroactive: true });
    expect(corrected.retroactive_adjustments).toEqual({ count: 1, sum: 200 });
    expect(await total(locked!)).toBe(1200);
    expect(await total(pending!)).toBe(0);
  });

  it("a locked line whose assignment ended since it was earned is not this edit's to correct", async () => {
    const { plan, reps, deals } = await world(BASE_10, [null], [[{ arr: 10000, on: "2026-07-10", lock: true }]]);
    const [locked] = deals[0]!;
    const assignments = ok<{ data: { id: string; user_id: string }[] }>(
      await api.get(`/comp-plans/${plan.id}/assignments`),
    );
    ok(await api.del(`/plan-assignments/${assignments.data[0]!.id}`), 204);
    const { impact } = await impactOf(api, plan.id, { base_rate: 0.11, retroactive: true });
    expect(impact.summary).toEqual({ users: 0, deals: 0, lines: 0, pending_delta: 0, locked_delta: 0 });
    expect((await apply(plan.id, { base_rate: 0.11, retroactive: true })).retroactive_adjustments).toEqual({
      count: 0,
      sum: 0,
    });
    expect(await total(locked!)).toBe(1000);
    expect(reps).toHaveLength(1);
  });

  it("a dispute's resolution counts in what a locked line pays: a retroactive change never pays it twice", async () => {
    const { plan, reps, deals } = await world(BASE_10, [null], [[{ arr: 10000, on: "2026-07-10", lock: true }]]);
    const [locked] = deals[0]!;
    const dispute = ok<{ id: string }>(
      await api.post(`/deals/${locked}/disputes`, { reason: "missing_tier", expected_amount: 1200 }),
      201,
    );
    ok(await api.post(`/disputes/${dispute.id}/resolve`, { outcome: "approved" }));
    expect(await total(locked!)).toBe(1200);
    const { impact, lines } = await impactOf(api, plan.id, { base_rate: 0.13, retroactive: true });
    expect(lines.map(row)).toEqual([[locked, reps[0]!.id, "approved", 1200, 1300, 100]]);
    expect(impact.summary.locked_delta).toBe(100);
    expect((await apply(plan.id, { base_rate: 0.13, retroactive: true })).retroactive_adjustments).toEqual({
      count: 1,
      sum: 100,
    });
    expect(await total(locked!)).toBe(1300);
  });

  it("a draft plan: a terms change lists nothing (drafts earn nothing); draft → active lists the new lines", async () => {
    const { plan, reps, deals } = await world(
      { ...BASE_10, status: "draft" },
      [null],
      [
        [
          { arr: 10000, on: "2026-07-10", lock: true },
          { arr: 20000, on: "2026-07-20" },
        ],
      ],
    );
    const [locked, pending] = deals[0]!;
    const terms = await impactOf(api, plan.id, { base_rate: 0.2 });
    expect(terms.impact.summary).toEqual({ users: 0, deals: 0, lines: 0, pending_delta: 0, locked_delta: 0 });
    expect(terms.impact.users).toEqual([]);
    expect([terms.impact.from_version, terms.impact.to_version]).toEqual([1, 1]);

    const { impact, lines } = await impactOf(api, plan.id, { status: "active", retroactive: true });
    // Locked deals never gain lines: only the pending deal's line appears.
    expect(lines.map((l) => [...row(l), l.line_id])).toEqual([[pending, reps[0]!.id, "pending", 0, 2000, 2000, null]]);
    expect(impact.summary).toEqual({ users: 1, deals: 1, lines: 1, pending_delta: 2000, locked_delta: 0 });

    const applied = await apply(plan.id, { status: "active", retroactive: true });
    expect(applied.retroactive_adjustments).toEqual({ count: 0, sum: 0 });
    expect(await total(pending!)).toBe(2000);
    expect(await total(locked!)).toBe(0);
  });

  it("a second retroactive change corrects what the rep is owed now (line + first correction), never twice", async () => {
    const { plan, reps, deals } = await world(BASE_10, [null], [[{ arr: 10000, on: "2026-07-10", lock: true }]]);
    const [locked] = deals[0]!;
    const rep = reps[0]!.id;
    expect((await apply(plan.id, { base_rate: 0.12, retroactive: true })).retroactive_adjustments).toEqual({
      count: 1,
      sum: 200,
    });

    const second = await impactOf(api, plan.id, { base_rate: 0.15 });
    expect(second.lines.map(row)).toEqual([[locked, rep, "approved", 1200, 1500, 300]]);
    expect([second.impact.from_version, second.impact.to_version]).toEqual([2, 3]);
    // What the rep is owed now was computed under version 2 (the first correction's "after").
    expect(second.lines[0]!.explanation_before).toMatchObject({ plan_version: 2, amount: 1200 });
    expect(second.lines[0]!.explanation_after).toMatchObject({ plan_version: 3, amount: 1500 });
    expect((await apply(plan.id, { base_rate: 0.15, retroactive: true })).retroactive_adjustments).toEqual({
      count: 1,
      sum: 300,
    });
    expect(await total(locked!)).toBe(1500);

    const back = await impactOf(api, plan.id, { base_rate: 0.1 });
    expect(back.lines.map(row)).toEqual([[locked, rep, "approved", 1500, 1000, -500]]);
    await apply(plan.id, { base_rate: 0.1, retroactive: true });
    expect(await total(locked!)).toBe(1000);

    const adjustments = (await storedLines(t, [locked!])).filter((l) => l.kind === "adjustment");
    const plan_line = (await storedLines(t, [locked!])).find((l) => l.kind === "plan")!;
    // The column keeps 3 decimals (API.md §15): USD amounts read at their 2.
    const usd = (text: string) => Number(text).toFixed(2);
    expect(adjustments.map((a) => [usd(a.amount), a.adjusts_line_id, a.status, a.locked])).toEqual([
      ["200.00", plan_line.id, "approved", true],
      ["300.00", plan_line.id, "approved", true],
      ["-500.00", plan_line.id, "approved", true],
    ]);
    const retro = (a: (typeof adjustments)[number]) => a.explanation.retroactive as Record<string, any>;
    expect(adjustments.map((a) => [retro(a).from_version, retro(a).to_version, retro(a).before.amount])).toEqual([
      [1, 2, "1000.00"],
      [2, 3, "1200.00"],
      [3, 4, "1500.00"],
    ]);
    expect(usd(plan_line.amount)).toBe("1000.00");
    // Each correction names the computation it replaces (the previous one's "after") and the new one.
    const computations = (a: (typeof adjustments)[number]) =>
      ["before", "after"].map((side) => {
        const e = retro(a)[side].explanation as { plan_version: number; amount: number };
        return [e.plan_version, e.amount];
      });
    expect(adjustments.map(computations)).toEqual([
      [
        [1, 1000],
        [2, 1200],
      ],
      [
        [2, 1200],
        [3, 1500],
      ],
      [
        [3, 1500],
        [4, 1000],
      ],
    ]);
  });

  it("a name-only edit lists nothing and keeps the version", async () => {
    const { plan, deals } = await world(
      BASE_10,
      [null],
      [
        [
          { arr: 10000, on: "2026-07-10", lock: true },
          { arr: 20000, on: "2026-07-20" },
        ],
      ],
    );
    expect(deals[0]!.length).toBe(2);
    const { impact } = await impactOf(api, plan.id, { name: "Renamed plan", description: "new words" });
    expect(impact).toEqual({
      plan_id: plan.id,
      from_version: 1,
      to_version: 1,
      summary: { users: 0, deals: 0, lines: 0, pending_delta: 0, locked_delta: 0 },
      users: [],
      lines: { data: [], meta: { page: 1, per_page: 100, total: 0 } },
    });
  });
});
