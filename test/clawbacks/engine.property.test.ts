import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type ClawbackPolicy,
  type ClawbackSourceLine,
  computeClawbacks,
  versionKey,
} from "../../src/commissions/engine/index.js";

/**
 * API.md §14 as properties of the pure computation, against an independent BigInt oracle: after each refund
 * the clawbacks of a user and plan add up to exactly round(E × percent/100 × in-window refunded/arr) (no drift),
 * a final cancel to round(E × percent/100 × f), and |Σ| never exceeds E.
 */

const cents = (c: bigint) =>
  `${c < 0n ? "-" : ""}${(c < 0n ? -c : c) / 100n}.${String((c < 0n ? -c : c) % 100n).padStart(2, "0")}`;
const toCents = (text: string) => BigInt(Math.round(Number(text) * 100));
const day = (offset: number) => new Date(Date.UTC(2026, 0, 15) + offset * 86_400_000).toISOString().slice(0, 10);

/** round half up of n / d, n ≥ 0, d > 0. */
const roundDiv = (n: bigint, d: bigint) => (2n * n + d) / (2n * d);

/** Target in cents: E × P/10^4 / 100 × num/den, with E in cents and P the percent × 10^4. */
const oracle = (e: bigint, p: bigint, num: bigint, den: bigint) => roundDiv(e * p * num, 1_000_000n * den);

const scenario = fc.record({
  planCents: fc.bigInt({ min: 0n, max: 10n ** 9n }),
  spiffCents: fc.bigInt({ min: 0n, max: 10n ** 7n }),
  arrCents: fc.bigInt({ min: 100n, max: 10n ** 11n }),
  percent4: fc.bigInt({ min: 0n, max: 1_000_000n }),
  window: fc.integer({ min: 1, max: 3650 }),
  proration: fc.constantFrom("none" as const, "unserved_days" as const),
  contract: fc.option(fc.tuple(fc.integer({ min: -400, max: 400 }), fc.integer({ min: 1, max: 2000 }))),
  refunds: fc.array(fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 4000 })), { maxLength: 6 }),
  cancelDay: fc.option(fc.integer({ min: 0, max: 4000 })),
});

describe("clawbacks never drift and never exceed what was earned", () => {
  it("random refunds and a final cancel, against a BigInt oracle", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const policy: ClawbackPolicy = {
          window_days: s.window,
          percent: (Number(s.percent4) / 10_000).toString(),
          proration: s.proration,
        };
        const e = s.planCents + s.spiffCents;
        const contract = s.contract && { start: day(s.contract[0]), end: day(s.contract[0] + s.contract[1]) };
        const deal = {
          currency: "USD",
          close_date: day(0),
          arr_amount: cents(s.arrCents),
          contract_start: contract?.start ?? null,
          contract_end: contract?.end ?? null,
        };
        const lines: ClawbackSourceLine[] = [
          {
            id: "com_p",
            user_id: "u",
            kind: "plan",
            plan_id: "p",
            plan_version: 1,
            amount: cents(s.planCents),
            status: "paid",
          },
          {
            id: "com_s",
            user_id: "u",
            kind: "spiff",
            plan_id: null,
            plan_version: null,
            amount: cents(s.spiffCents),
            status: "paid",
          },
        ];
        const plans = new Map([[versionKey("p", 1), { name: "P", policy }]]);
        const clawed = () =>
          lines.filter((l) => l.kind === "clawback").reduce((sum, l) => sum + toCents(String(l.amount)), 0n);
        const refunds: { amount: string; effective_date: string }[] = [];
        let left = s.arrCents;
        let inWindow = 0n;
        let target = 0n;
        for (const [share, offset] of s.refunds) {
          const amount = (left * BigInt(share)) / 1000n;
          if (amount <= 0n) continue;
          left -= amount;
          const event = { type: "refund" as const, effective_date: day(offset), amount: cents(amount), refund_id: "r" };
          const result = computeClawbacks({ deal, lines, plans, refunds, event });
          refunds.push({ amount: cents(amount), effective_date: day(offset) });
          for (const [i, l] of result.lines.entries())
            lines.push({ ...l, id: `com_${lines.length}_${i}`, kind: "clawback", status: "approved" });
          if (offset <= s.window) {
            inWindow += amount;
            target = oracle(e, s.percent4, inWindow, s.arrCents);
            expect(-clawed()).toBe(target > 0n ? target : 0n);
          } else expect(result.lines).toEqual([]);
        }
        if (s.cancelDay !== null) {
          const event = { type: "cancel" as const, effective_date: day(s.cancelDay) };
          const result = computeClawbacks({ deal, lines, plans, refunds, event });
          for (const l of result.lines) lines.push({ ...l, id: "com_cancel", kind: "clawback", status: "approved" });
          if (s.cancelDay <= s.window) {
            let [num, den] = [1n, 1n];
            if (s.proration === "unserved_days" && s.contract) {
              const term = BigInt(s.contract[1]);
              const unserved = BigInt(s.contract[0] + s.contract[1] - s.cancelDay);
              [num, den] = [unserved < 0n ? 0n : unserved > term ? term : unserved, term];
            }
            const cancelTarget = oracle(e, s.percent4, num, den);
            expect(-clawed()).toBe(cancelTarget > target ? cancelTarget : target);
          } else expect(result.lines).toEqual([]);
        }
        expect(-clawed()).toBeLessThanOrEqual(e);
        expect(clawed()).toBeLessThanOrEqual(0n);
      }),
      { numRuns: 400 },
    );
  });
});
