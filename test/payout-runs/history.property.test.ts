import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Commission } from "../../src/commissions/index.js";
import type { Page } from "../../src/http/pagination.js";
import { type Fixed, parse, plain, plus, ZERO } from "../../src/money/index.js";
import type { PayoutRunDetail } from "../../src/payout-runs/index.js";
import { createUser } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";

/*
 * API.md §13's invariants over random histories of one person: approvals, adjustments (positive and
 * negative), runs with random max_recovery_percent, finalizes and cancels in any order. Per finalized
 * payee net_pay = lines_total − brought_forward + carried_forward and net_pay ≥ 0; over the finalized runs
 * Σ net_pay = Σ their lines + the latest carried_forward (latest in finalization order); no line is in
 * two runs; a finalized run's lines are paid. One shared server; a fresh person per history.
 */

let t: TestApp;
let api: Api;
let planId: string;
beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  api = new Api(t);
  planId = (await createPlan(api, { tiers: null, quota: null, base_rate: 0.1 })).id;
});
afterAll(() => t.close());

type Op =
  | { op: "deal"; arr: number }
  | { op: "adjust"; cents: number }
  | { op: "run"; percent: number }
  | { op: "finalize"; pick: number }
  | { op: "cancel"; pick: number };

const PERCENTS = [0, 12.5, 33.3333, 50, 66.6667, 99.9999, 100];
const ops: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant("deal" as const), arr: fc.integer({ min: 1, max: 500 }).map((n) => n * 100) }),
  fc.record({
    op: fc.constant("adjust" as const),
    cents: fc.integer({ min: -300_000, max: 100_000 }).filter((c) => c !== 0),
  }),
  fc.record({ op: fc.constant("run" as const), percent: fc.constantFrom(...PERCENTS) }),
  fc.record({ op: fc.constant("finalize" as const), pick: fc.nat() }),
  fc.record({ op: fc.constant("cancel" as const), pick: fc.nat() }),
);

/** A draft owing a deficit while a later one is finalized first: the deficits must chain by finalization. */
const OUT_OF_ORDER: Op[] = [
  { op: "deal", arr: 10000 },
  { op: "adjust", cents: -300_000 },
  { op: "run", percent: 50 },
  { op: "deal", arr: 20000 },
  { op: "run", percent: 100 },
  { op: "finalize", pick: 1 },
  { op: "deal", arr: 5000 },
  { op: "run", percent: 33.3333 },
  { op: "finalize", pick: 0 },
  { op: "finalize", pick: 0 },
];

const sum = (values: (string | number)[]): Fixed => values.reduce<Fixed>((s, v) => plus(s, parse(String(v))), ZERO);
const text = (f: Fixed) => plain(f);

async function play(history: Op[]): Promise<void> {
  const user = await createUser(t);
  await assign(api, planId, user.id);
  const dates = { through: "2026-11-22", pay_date: "2026-11-30", user_ids: [user.id] };
  let dealId: string | null = null;
  const drafts: string[] = [];
  const finalized: string[] = [];
  for (const step of history) {
    if (step.op === "deal") {
      dealId = (await createDeal(api, user.id, { arr_amount: step.arr, close_date: "2026-10-05" })).id;
      await approveAsOwner(t, dealId);
    } else if (step.op === "adjust" && dealId) {
      const body = { deal_id: dealId, user_id: user.id, amount: step.cents / 100, reason: "history" };
      ok(await api.post("/commissions/adjustments", body), 201);
    } else if (step.op === "run") {
      drafts.push(
        ok<PayoutRunDetail>(await api.post("/payout-runs", { ...dates, max_recovery_percent: step.percent }), 201).id,
      );
    } else if ((step.op === "finalize" || step.op === "cancel") && drafts.length > 0) {
      const [id] = drafts.splice(step.pick % drafts.length, 1);
      ok(await api.post(`/payout-runs/${id}/${step.op}`));
      if (step.op === "finalize") finalized.push(id!);
    }
  }
  const runs = await Promise.all(finalized.map(async (id) => ok<PayoutRunDetail>(await api.get(`/payout-runs/${id}`))));
  const heldBy = new Map<string, string>();
  let net = ZERO;
  let lines = ZERO;
  for (const run of runs) {
    const page = ok<Page<Commission>>(await api.get(`/commissions?payout_run_id=${run.id}&per_page=100`));
    for (const line of page.data) {
      expect(heldBy.get(line.id), `line ${line.id} in two runs`).toBeUndefined();
      heldBy.set(line.id, run.id);
      expect(line.status).toBe("paid");
    }
    const runLines = sum(page.data.map((l) => l.amount));
    for (const p of run.payees) {
      expect(p.net_pay).toBeGreaterThanOrEqual(0);
      const expected = plus(
        plus(parse(String(p.lines_total)), parse(String(-p.deficit_brought_forward))),
        parse(String(p.deficit_carried_forward)),
      );
      expect(text(parse(String(p.net_pay)))).toBe(text(expected));
      net = plus(net, parse(String(p.net_pay)));
    }
    expect(text(sum(run.payees.map((p) => p.lines_total)))).toBe(text(runLines));
    lines = plus(lines, runLines);
  }
  // The latest deficit: that of the last run finalized with a payee for this person (an empty run carries none).
  const carried = [...runs].reverse().find((r) => r.payees.length > 0)?.payees[0]?.deficit_carried_forward ?? 0;
  expect(text(net)).toBe(text(plus(lines, parse(String(carried)))));
}

describe("payout runs over random histories (API.md §13 invariants)", () => {
  it("Σ net_pay = Σ lines + the latest deficit; per payee net = L − D0 + carried ≥ 0; no line in two runs", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(ops, { minLength: 3, maxLength: 12 }), (history) => play(history)),
      { numRuns: 25, examples: [[OUT_OF_ORDER]] },
    );
  });
});
