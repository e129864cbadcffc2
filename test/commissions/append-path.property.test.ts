import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendCounter, planRecalc, settle } from "../../src/commissions/testing.js";
import type { DealDetail } from "../../src/deals/index.js";
import { markJob } from "../../src/jobs/testing.js";
import { compareTexts } from "../../src/money/index.js";
import { createJob, createUser } from "../factories.js";
import { Api, approveAsOwner, assign, createPlan, dealBody, ok, rejectAsOwner } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";

/*
 * A create whose deal lands after every deal of its bucket writes only its own line, from the bucket's sums
 * (recalc/append.ts). After every step of random sequences — creates landing last, earlier, or tied on
 * close_date and created_at, some in a currency converted at a rate that does not terminate (a bucket
 * holding a converted line is recomputed whole); approvals (locked lines use the cap first); rejections — a full recalculation
 * of every deal must find no line to add, delete or reprice, and the new deal's lines exactly as written:
 * the same amounts to the cent, the same explanation bytes.
 */

let t: TestApp;
let api: Api;
const clock = new TestClock();
beforeAll(async () => {
  t = await createTestApp({ clock });
  api = new Api(t);
  // EUR deals on these USD plans are converted (API.md §15): 25/23, a credit that does not terminate.
  // A rate every 7 days (the default fx_max_age_days) so every August close date has a usable one.
  for (const date of ["2026-07-31", "2026-08-07", "2026-08-14", "2026-08-21", "2026-08-28"])
    ok(await api.put(`/exchange-rates/${date}`, { base: "USD", rates: { EUR: "0.92" } }), 201);
});
afterAll(() => t.close());

/**
 * What a full recalculation of these deals would write: every line it would add, delete or give another
 * amount, and any other difference (the explanation, compared by its digest) on the lines of `created`.
 * (An approval recalculates nothing, so the explanations of pending lines before a newly locked one keep
 * the cap use they were written with until their bucket is next recomputed: only amounts are compared there.)
 */
async function fullRecalculationChanges(dealIds: string[], created: string | null) {
  const plan = await planRecalc(t.db.db, [{ type: "deals", deal_ids: dealIds }]);
  await settle(plan.diff);
  const show = (l: { deal_id: string; amount: string }) => `${l.deal_id} ${l.amount}`;
  return {
    inserts: plan.diff.inserts.map(show),
    updates: plan.diff.updates
      // Amounts by value: the column keeps 3 decimals ("8.000") where the engine writes a USD line "8.00".
      .filter(({ before, after }) => compareTexts(before.amount, after.amount) !== 0 || before.deal_id === created)
      .map(({ before, after }) => `${show(before)} → ${after.amount}`),
    deletes: plan.diff.deletes.map(show),
  };
}

const planTerms = fc.record({
  tiered: fc.boolean(),
  quota: fc.constantFrom(20000, 50000, 100000),
  cap: fc.option(fc.constantFrom(1500, 4000, 9000.5), { nil: null }),
  min: fc.option(fc.constantFrom(3000, 12000), { nil: null }),
  multiplier: fc.constantFrom(1, 1.25, 0.5),
});

const step = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant("create" as const),
      arr: fc.integer({ min: 100_00, max: 60_000_00 }).map((c) => c / 100),
      // Mostly late in the quarter and increasing, so most creates land last; some land earlier or tie.
      day: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, fc.integer({ min: 1, max: 28 })),
      type: fc.constantFrom("new_business", "expansion", "renewal"),
      currency: fc.constantFrom("USD", "USD", "USD", "USD", "USD", "EUR"),
      split: fc.boolean(),
      tick: fc.constantFrom(0, 0, 1, 1000),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("approve" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("reject" as const), pick: fc.nat() }) },
);

describe("a create appended to its bucket equals a full recalculation", () => {
  it("after every step of random sequences, on this database", async () => {
    const appendedBefore = appendCounter.buckets;
    await fc.assert(
      fc.asyncProperty(planTerms, fc.array(step, { minLength: 3, maxLength: 8 }), async (terms, steps) => {
        const plan = await createPlan(api, {
          ...(terms.tiered ? { quota: terms.quota } : { tiers: null, quota: null, base_rate: 0.08 }),
          cap_per_period: terms.cap,
          min_deal_amount: terms.min,
          deal_type_multipliers: { expansion: terms.multiplier, renewal: 0.5 },
        });
        const rep = await createUser(t);
        const partner = await createUser(t);
        await assign(api, plan.id, rep.id);
        await assign(api, plan.id, partner.id);
        const pending: string[] = [];
        const all: string[] = [];
        let day = 1;
        for (const s of steps) {
          let created: string | null = null;
          if (s.op === "create") {
            clock.advance(s.tick);
            const d = s.day ?? Math.min(28, day++);
            const body = dealBody(rep.id, {
              arr_amount: s.arr,
              close_date: `2026-08-${String(d).padStart(2, "0")}`,
              deal_type: s.type,
              currency: s.currency,
              ...(s.split
                ? {
                    splits: [
                      { user_id: rep.id, percent: 60 },
                      { user_id: partner.id, percent: 40 },
                    ],
                  }
                : {}),
            });
            const deal = ok<DealDetail>(await api.post("/deals", body), 201);
            pending.push(deal.id);
            all.push(deal.id);
            created = deal.id;
          } else if (pending.length > 0) {
            const [id] = pending.splice(s.pick % pending.length, 1);
            if (s.op === "approve") await approveAsOwner(t, id!);
            else await rejectAsOwner(t, id!);
          }
          expect(await fullRecalculationChanges(all, created)).toEqual({ inserts: [], updates: [], deletes: [] });
        }
      }),
      { numRuns: 15 },
    );
    // The fast path ran (most creates land last, few buckets hold a converted line), so the property above checked it.
    expect(appendCounter.buckets - appendedBefore).toBeGreaterThan(20);
  }, 600_000);

  it("a queued recalculation job sends creates through the full recalculation", async () => {
    const plan = await createPlan(api);
    const rep = await createUser(t);
    await assign(api, plan.id, rep.id);
    ok(await api.post("/deals", dealBody(rep.id, { close_date: "2026-09-01" })), 201);
    const appended = appendCounter.buckets;
    ok(await api.post("/deals", dealBody(rep.id, { close_date: "2026-09-02" })), 201);
    expect(appendCounter.buckets).toBe(appended + 1);

    const job = await createJob(t, "recalculate");
    ok(await api.post("/deals", dealBody(rep.id, { close_date: "2026-09-03" })), 201);
    expect(appendCounter.buckets).toBe(appended + 1);
    await markJob(t.db.db, job.id, "succeeded");
    ok(await api.post("/deals", dealBody(rep.id, { close_date: "2026-09-04" })), 201);
    expect(appendCounter.buckets).toBe(appended + 2);
  });
});
