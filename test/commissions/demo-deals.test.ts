import { describe, expect, it } from "vitest";
import { periodOf } from "../../src/commissions/index.js";
import { type DemoDeal, demoDeals, demoReps, HISTORY, PEOPLE, periodsOf } from "../../src/demo/testing.js";

// The demo's deals as the builder plans them, for any day the demo may be seeded on: every rep's
// attainment stays between 40 % and 180 % in every period (seed-demo.test.ts checks the same through
// the API for one day).

const users = new Map(PEOPLE.map((p) => [p.key, `usr_${p.key}`]));
const reps = demoReps(users);

/** Credit per rep and period, from deals that count (every status but rejected). */
function attainment(deals: DemoDeal[]): Map<string, number> {
  const credit = new Map<string, number>();
  for (const { body, target } of deals) {
    if (target === "rejected") continue;
    for (const split of body.splits ?? [{ user_id: body.owner_id, percent: 100 }]) {
      const rep = reps.find((r) => r.id === split.user_id)!;
      const key = `${rep.key} ${periodOf(rep.kind, body.close_date)}`;
      credit.set(key, (credit.get(key) ?? 0) + (body.arr_amount * split.percent) / 100);
    }
  }
  return new Map([...credit].map(([key, c]) => [key, c / reps.find((r) => key.startsWith(`${r.key} `))!.quota]));
}

/** Every day from 2025-12-28 to 2028-01-03: month, quarter and year starts and ends, leap day included. */
const DAYS = Array.from({ length: 737 }, (_, i) => new Date(Date.UTC(2025, 11, 28 + i)).toISOString().slice(0, 10));

describe("the demo's deals on any day", () => {
  it("has reps on a monthly, a quarterly and a yearly plan", () => {
    expect([...new Set(reps.map((r) => r.kind))].sort()).toEqual(["month", "quarter", "year"]);
  });

  it.each(DAYS)("%s: every period of every rep is between 40 %% and 180 %% of quota, none after today", (today) => {
    const deals = demoDeals(reps, today);
    const ratios = attainment(deals);
    for (const rep of reps) {
      const periods = periodsOf(rep.kind, today);
      expect(periods.length).toBe(HISTORY[rep.kind].periods);
      for (const p of periods) {
        const ratio = ratios.get(`${rep.key} ${p.label}`);
        expect(ratio, `${rep.key} ${p.label}`).toBeGreaterThanOrEqual(0.4);
        expect(ratio, `${rep.key} ${p.label}`).toBeLessThanOrEqual(1.8);
      }
      // No credit outside the rep's periods of history.
      const labels = new Set(periods.map((p) => `${rep.key} ${p.label}`));
      expect([...ratios.keys()].filter((k) => k.startsWith(`${rep.key} `) && !labels.has(k))).toEqual([]);
    }
    expect(deals.every((d) => d.body.close_date <= today && d.body.arr_amount > 0)).toBe(true);
    expect(new Set(deals.map((d) => d.body.external_id)).size).toBe(deals.length);
    expect(new Set(deals.map((d) => d.target))).toEqual(
      new Set(["pending", "approved", "disputed", "paid", "rejected"]),
    );
    expect(new Set(deals.flatMap((d) => (d.resolved ? [d.resolved] : [])))).toEqual(
      new Set(["approved", "denied", "partially_approved"]),
    );
    expect(deals.filter((d) => d.body.splits).length).toBeGreaterThan(0);
  });

  it("plans the same deals twice on one day", () => {
    expect(demoDeals(reps, "2026-11-22")).toEqual(demoDeals(reps, "2026-11-22"));
  });
});
