import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AccountingAsset, RollForward } from "../../src/accounting/index.js";
import { createUser } from "../factories.js";
import { Api, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, TestClock } from "../harness.js";
import { today } from "../payout-runs/support.js";

/**
 * API.md §17 over random histories, through the API on a database of their own: deals approved with and
 * without contract dates under random settings, then adjusted, refunded (clawbacks) and cancelled at
 * random later days. Whatever happened:
 * - per line, Σ amortization + clawbacks + impairment + what is still on the books = amount + adjustments,
 *   and each month's closing follows from the one before;
 * - month by month the roll-forward closes (a month's opening is the last one's closing) and its movements
 *   are the Σ of the schedules' rows of that month;
 * - each month's journal balances (debits = credits), and its Deferred commissions account moves by what
 *   the roll-forward says.
 */

const cents = (n: number) => Math.round(n * 100);
const money = (c: number) => c / 100;

const Event = fc.record({
  day: fc.integer({ min: 1, max: 900 }),
  what: fc.oneof(
    fc.record({ type: fc.constant("adjust" as const), amount: fc.integer({ min: -50_000, max: 50_000 }) }),
    fc.record({ type: fc.constant("refund" as const), share: fc.integer({ min: 1, max: 60 }) }),
    fc.record({ type: fc.constant("cancel" as const) }),
  ),
});

const Deal = fc.record({
  arr: fc.integer({ min: 100, max: 9_999_999 }),
  closeDay: fc.integer({ min: 0, max: 170 }),
  contract: fc.option(
    fc.record({ startOffset: fc.integer({ min: -3, max: 3 }), term: fc.integer({ min: 6, max: 40 }) }),
    { nil: null },
  ),
  events: fc.array(Event, { maxLength: 4 }),
});

const History = fc.record({
  life: fc.integer({ min: 13, max: 48 }),
  commensurate: fc.boolean(),
  expedient: fc.boolean(),
  percent: fc.integer({ min: 0, max: 100 }),
  deals: fc.array(Deal, { minLength: 1, maxLength: 3 }),
});

const dayAfter = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const monthAfter = (month: string, n: number) => {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const i = y * 12 + m - 1 + n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, "0")}`;
};

describe("§17 over random histories", () => {
  it("every line, every month's roll-forward and every month's journal closes", async () => {
    await fc.assert(
      fc.asyncProperty(History, async (h) => {
        const t = await createTestApp({ clock: new TestClock() });
        try {
          const api = new Api(t);
          today(t, "2025-06-01");
          const plan = await createPlan(api, {
            period: "month",
            tiers: null,
            quota: null,
            base_rate: 0.1,
            effective_from: "2025-01-01",
            clawback: { window_days: 3650, percent: h.percent, proration: "none" },
          });
          const user = await createUser(t);
          await assign(api, plan.id, user.id, { effective_from: "2025-01-01" });
          ok(
            await api.put("/settings/accounting", {
              expected_customer_life_months: h.life,
              renewal_commission_commensurate: h.commensurate,
              practical_expedient: h.expedient,
            }),
          );

          // Every step of every deal in the order of its day, the clock set to it.
          type Step = { day: string; run: () => Promise<void> };
          const steps: Step[] = [];
          const ids: string[] = [];
          for (const d of h.deals) {
            const close = dayAfter("2026-01-01", d.closeDay);
            const start = d.contract ? `${monthAfter(close.slice(0, 7), d.contract.startOffset)}-01` : null;
            const body = {
              arr_amount: money(d.arr),
              close_date: close,
              ...(d.contract &&
                start && {
                  contract_start: start,
                  contract_end: `${monthAfter(start.slice(0, 7), d.contract.term)}-01`,
                }),
            };
            let id = "";
            let refunded = 0;
            let cancelled = false;
            steps.push({
              day: close,
              run: async () => {
                id = (await createDeal(api, user.id, body)).id;
                ids.push(id);
                ok(await api.post(`/deals/${id}/approve`));
              },
            });
            for (const e of d.events) {
              const day = dayAfter(close, e.day);
              steps.push({
                day,
                run: async () => {
                  if (cancelled) return;
                  if (e.what.type === "adjust" && e.what.amount !== 0) {
                    ok(
                      await api.post("/commissions/adjustments", {
                        deal_id: id,
                        user_id: user.id,
                        amount: money(e.what.amount),
                        reason: "random history",
                      }),
                      201,
                    );
                  } else if (e.what.type === "refund") {
                    const amount = Math.min(Math.floor((d.arr * e.what.share) / 100), d.arr - refunded);
                    if (amount <= 0) return;
                    ok(await api.post(`/deals/${id}/refunds`, { amount: money(amount), effective_date: day }), 201);
                    refunded += amount;
                  } else if (e.what.type === "cancel") {
                    ok(await api.post(`/deals/${id}/cancel`, { reason: "churn", effective_date: day }));
                    cancelled = true;
                  }
                },
              });
            }
          }
          for (const step of steps.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0))) {
            today(t, step.day);
            await step.run();
          }

          // Per line.
          const assets: AccountingAsset[] = [];
          for (const id of ids) {
            assets.push(...ok<{ data: AccountingAsset[] }>(await api.get(`/accounting/schedule?deal_id=${id}`)).data);
          }
          expect(assets.length).toBe(ids.length);
          for (const a of assets) {
            let closing = 0;
            let out = 0;
            let added = 0;
            for (const m of a.schedule) {
              closing +=
                cents(m.addition) +
                cents(m.adjustment) -
                cents(m.amortization) -
                cents(m.clawback) -
                cents(m.impairment);
              expect(cents(m.closing), m.month).toBe(closing);
              out += cents(m.amortization) + cents(m.clawback) + cents(m.impairment);
              added += cents(m.addition) + cents(m.adjustment);
            }
            expect(out + closing).toBe(added);
            if (a.treatment === "capitalized")
              expect(added - cents(a.amount)).toBe(a.schedule.reduce((s, m) => s + cents(m.adjustment), 0));
          }

          // Month by month: the roll-forward and the journal.
          let opening = 0;
          for (let i = 0; i < 84; i++) {
            const month = monthAfter("2026-01", i);
            const rows = assets.flatMap((a) => a.schedule.filter((m) => m.month === month));
            const sum = (f: (m: AccountingAsset["schedule"][number]) => number) =>
              rows.reduce((s, m) => s + cents(f(m)), 0);
            const expected = {
              additions: sum((m) => m.addition),
              adjustments: sum((m) => m.adjustment),
              amortization: sum((m) => m.amortization),
              clawbacks: sum((m) => m.clawback),
              impairment: sum((m) => m.impairment),
            };
            const rf = ok<RollForward>(await api.get(`/accounting/roll-forward?from=${month}&to=${month}`)).data[0];
            const got = rf
              ? {
                  additions: cents(rf.additions),
                  adjustments: cents(rf.adjustments),
                  amortization: cents(rf.amortization),
                  clawbacks: cents(rf.clawbacks),
                  impairment: cents(rf.impairment),
                }
              : { additions: 0, adjustments: 0, amortization: 0, clawbacks: 0, impairment: 0 };
            expect(got, month).toEqual(expected);
            expect(rf ? cents(rf.opening) : 0, month).toBe(opening);
            const closing =
              opening +
              expected.additions +
              expected.adjustments -
              expected.amortization -
              expected.clawbacks -
              expected.impairment;
            expect(rf ? cents(rf.closing) : 0, month).toBe(closing);
            opening = closing;

            const journal = ok<{
              data: { account: string; debit: number | null; credit: number | null }[];
              meta: { debit: number; credit: number };
            }>(await api.get(`/accounting/journal?month=${month}&summary=true&per_page=100`));
            expect(journal.meta.debit, month).toBe(journal.meta.credit);
            const deferred = journal.data
              .filter((r) => r.account === "Deferred commissions")
              .reduce((s, r) => s + cents(r.debit ?? 0) - cents(r.credit ?? 0), 0);
            expect(deferred, month).toBe(
              expected.additions +
                expected.adjustments -
                expected.amortization -
                expected.clawbacks -
                expected.impairment,
            );
          }
        } finally {
          await t.close();
        }
      }),
      { numRuns: 6 },
    );
  }, 600_000);
});
