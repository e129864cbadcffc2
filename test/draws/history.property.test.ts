import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Draw } from "../../src/draws/index.js";
import { createUser } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { createRun, finalizeRun, payeeOf, today } from "../payout-runs/support.js";

/**
 * API.md §18's invariants over random earnings histories (in whole cents): a monthly draw of `amount` from
 * January to June (or ended at an earlier month's end), a run through each month's end from January to
 * August, forgiveness of part of the balance now and then. For a recoverable draw, once its last period
 * settled: Σ net paid = Σ earnings + the outstanding balance + Σ forgiven, and each month the draw ran paid
 * at least its amount. A non-recoverable draw never has a balance and pays Σ earnings + Σ advances.
 */

let t: TestApp;
let api: Api;
let plan: { id: string };

beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  api = new Api(t);
  today(t, "2026-01-02");
  plan = await createPlan(api, { name: "Monthly 10 %", period: "month", tiers: null, quota: null, base_rate: 0.1 });
});
afterAll(() => t.close());

const MONTHS = ["01", "02", "03", "04", "05", "06", "07", "08"];
const lastDay = (m: string) => new Date(Date.UTC(2026, Number(m), 0)).toISOString().slice(0, 10);
const nextFirst = (m: string) => new Date(Date.UTC(2026, Number(m), 1)).toISOString().slice(0, 10);
const cents = (n: number) => Math.round(n * 100);
const money = (c: number) => c / 100;

interface History {
  kind: "recoverable" | "non_recoverable";
  amount: number;
  earnings: number[];
  endAfter: number;
  recoveryFrom: number;
  forgive: (number | null)[];
}

const history: fc.Arbitrary<History> = fc.record({
  kind: fc.constantFrom("recoverable" as const, "non_recoverable" as const),
  amount: fc.integer({ min: 1, max: 300_000 }),
  // Earnings in cents, zero often.
  earnings: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 500_000 })), { minLength: 8, maxLength: 8 }),
  endAfter: fc.integer({ min: 0, max: 6 }),
  recoveryFrom: fc.integer({ min: 0, max: 7 }),
  forgive: fc.array(fc.option(fc.integer({ min: 1, max: 100 }), { nil: null, freq: 3 }), {
    minLength: 8,
    maxLength: 8,
  }),
});

async function play(h: History) {
  const user = await createUser(t);
  await assign(api, plan.id, user.id);
  today(t, "2026-01-02");
  const draw = ok<Draw>(
    await api.post("/draws", {
      user_id: user.id,
      kind: h.kind,
      amount: money(h.amount),
      period: "month",
      starts_on: "2026-01-01",
      ends_on: "2026-06-30",
      ...(h.kind === "recoverable" ? { recovery_starts_on: `2026-${MONTHS[h.recoveryFrom]}-01` } : {}),
    }),
    201,
  );
  // Ended early: at the end of month endAfter (6: not ended).
  if (h.endAfter < 6) {
    const effective = h.endAfter === 0 ? "2025-12-31" : lastDay(MONTHS[h.endAfter - 1]!);
    ok(await api.post(`/draws/${draw.id}/end`, { effective_date: effective }));
  }
  const paid: number[] = [];
  let forgiven = 0;
  for (const [i, m] of MONTHS.entries()) {
    const e = h.earnings[i]!;
    if (e > 0) {
      today(t, `2026-${m}-10`);
      const deal = await createDeal(api, user.id, { arr_amount: money(e * 10), close_date: `2026-${m}-10` });
      await approveAsOwner(t, deal.id);
    }
    today(t, nextFirst(m));
    const run = await createRun(api, { through: lastDay(m), pay_date: nextFirst(m), user_ids: [user.id] });
    const final = await finalizeRun(api, run.id);
    paid.push(final.payees.length === 0 ? 0 : cents(payeeOf(final, user.id).net_pay));
    const now = ok<Draw>(await api.get(`/draws/${draw.id}`));
    if (h.kind === "non_recoverable") expect(now.balance).toBe(0);
    const share = h.forgive[i];
    if (share !== null && share !== undefined && h.kind === "recoverable" && now.balance > 0) {
      const amount = Math.max(1, Math.floor((cents(now.balance) * share) / 100));
      ok(await api.post(`/draws/${draw.id}/forgive`, { amount: money(amount), reason: "property" }));
      forgiven += amount;
    }
  }
  return { paid, forgiven, draw: ok<Draw>(await api.get(`/draws/${draw.id}`)) };
}

describe("draws over random earnings histories (API.md §18)", () => {
  it("recoverable: Σ paid = Σ E + balance + forgiven, each running month pays ≥ amount; non-recoverable: no balance, Σ paid = Σ E + Σ advances", async () => {
    await fc.assert(
      fc.asyncProperty(history, async (h) => {
        const { paid, forgiven, draw } = await play(h);
        const sumPaid = paid.reduce((a, b) => a + b, 0);
        const sumE = h.earnings.reduce((a, b) => a + b, 0);
        const running = h.endAfter; // months 0 … endAfter − 1 advanced
        const advances = h.earnings.slice(0, running).map((e) => Math.max(0, h.amount - e));
        expect(draw.periods.filter((p) => p.payout_run_id !== null)).toHaveLength(running);
        expect(draw.periods.map((p) => (p.advance === null ? null : cents(p.advance)))).toEqual(advances);
        if (h.kind === "non_recoverable") {
          expect(draw.balance).toBe(0);
          expect(sumPaid).toBe(sumE + advances.reduce((a, b) => a + b, 0));
        } else {
          expect(sumPaid).toBe(sumE + cents(draw.balance) + forgiven);
          expect(cents(draw.balance)).toBeGreaterThanOrEqual(0);
        }
        for (let i = 0; i < running; i++) expect(paid[i]!).toBeGreaterThanOrEqual(h.amount);
      }),
      { numRuns: 20 },
    );
  }, 600_000);
});
