import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DealDetail } from "../../src/deals/index.js";
import { createUser } from "../factories.js";
import { Api, approveAsOwner, assign, createPlan, dealBody, ok, rejectAsOwner } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { createRun, finalizeRun, today } from "../payout-runs/support.js";

/*
 * The team page reads each line's credit and quota from the columns beside its explanation (migration 024,
 * the (user_id, period) index alone). Whatever writes or rewrites lines — a create appended to its bucket
 * or recalculated whole, an edit, an approval, a rejection, a plan change, a SPIFF, an override, a
 * currency conversion whose credit does not terminate (25175/23), a refund's or a cancellation's
 * clawback, an adjustment, a payout run's draw lines — after every step of random sequences every line's
 * stored credit and quota are its explanation's, the same text.
 */

let t: TestApp;
let api: Api;
let plan: { id: string };
let override: { id: string };
let manager: { id: string };

beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  api = new Api(t);
  today(t, "2026-07-01");
  // EUR deals on the USD plan are converted at 25/23 (API.md §15): a credit that does not terminate.
  for (const date of ["2026-07-01", "2026-07-08", "2026-07-15", "2026-07-22", "2026-07-29"])
    ok(await api.put(`/exchange-rates/${date}`, { base: "USD", rates: { EUR: "0.92" } }), 201);
  const clawback = { window_days: 365, percent: 100, proration: "none" };
  plan = await createPlan(api, { quota: 20000, effective_from: "2026-07-01", clawback });
  manager = await createUser(t, { role: "manager" });
  override = ok<{ id: string }>(
    await api.post("/comp-plans", {
      name: "Override",
      kind: "override",
      period: "quarter",
      effective_from: "2026-07-01",
      override_levels: [{ depth: 1, rate: 0.03 }],
      clawback,
    }),
    201,
  );
  await assign(api, override.id, manager.id, { effective_from: "2026-07-01" });
  ok(
    await api.post("/spiffs", {
      name: "July",
      starts_on: "2026-07-01",
      ends_on: "2026-07-31",
      payout: { type: "rate", rate: 0.05 },
    }),
    201,
  );
});
afterAll(() => t.close());

/** Lines whose stored credit or quota is not their explanation's (none, always). */
async function drifted() {
  const { rows } = await sql<{ id: string; kind: string; credit: string | null; explained: string | null }>`
    SELECT id, kind, credit, explanation->>'credit' AS explained FROM commission_lines
    WHERE credit IS DISTINCT FROM explanation->>'credit' OR quota IS DISTINCT FROM explanation->>'quota'
    ORDER BY id`.execute(t.db.db);
  return rows;
}

const step = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant("create" as const),
      arr: fc.integer({ min: 100_00, max: 40_000_00 }).map((c) => c / 100),
      // Mostly increasing close dates (a create appended to its bucket), some earlier (recalculated whole).
      day: fc.option(fc.integer({ min: 1, max: 28 }), { nil: null, freq: 2 }),
      currency: fc.constantFrom("USD", "USD", "EUR"),
      split: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("edit" as const), pick: fc.nat(), arr: fc.nat(30_000) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("approve" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("reject" as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("plan" as const), quota: fc.constantFrom(15000, 25000, 40000) }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("refund" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("cancel" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("adjust" as const), pick: fc.nat(), cents: fc.integer() }) },
);

describe("a line's stored credit and quota", () => {
  it("are its explanation's after every step of random sequences, on this database", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 10 }), async (steps) => {
        today(t, "2026-07-01");
        const rep = await createUser(t);
        const partner = await createUser(t);
        for (const u of [rep, partner]) {
          ok(await api.patch(`/users/${u.id}`, { manager_id: manager.id, manager_effective_from: "2026-07-01" }));
          await assign(api, plan.id, u.id, { effective_from: "2026-07-01" });
        }
        const draw = {
          user_id: rep.id,
          kind: "recoverable",
          amount: 500,
          period: "month",
          starts_on: "2026-07-01",
          ends_on: "2026-08-31",
          recovery_starts_on: "2026-08-01",
        };
        ok(await api.post("/draws", draw), 201);
        today(t, "2026-07-30");
        const pending: string[] = [];
        const approved: string[] = [];
        let day = 1;
        for (const s of steps) {
          if (s.op === "create") {
            const d = s.day ?? Math.min(28, day++);
            const body = dealBody(rep.id, {
              arr_amount: s.arr,
              close_date: `2026-07-${String(d).padStart(2, "0")}`,
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
            pending.push(ok<DealDetail>(await api.post("/deals", body), 201).id);
          } else if (s.op === "plan") {
            ok(await api.patch(`/comp-plans/${plan.id}`, { quota: s.quota }));
          } else if ((s.op === "edit" || s.op === "approve" || s.op === "reject") && pending.length > 0) {
            const i = s.pick % pending.length;
            if (s.op === "edit") ok(await api.patch(`/deals/${pending[i]}`, { arr_amount: 1000 + s.arr }));
            else {
              const [id] = pending.splice(i, 1);
              if (s.op === "approve") {
                await approveAsOwner(t, id!);
                approved.push(id!);
              } else await rejectAsOwner(t, id!);
            }
          } else if ((s.op === "refund" || s.op === "cancel" || s.op === "adjust") && approved.length > 0) {
            const id = approved[s.pick % approved.length]!;
            if (s.op === "refund")
              ok(
                await api.post(`/deals/${id}/refunds`, { amount: 100, effective_date: "2026-07-30", reason: "Seats" }),
                201,
              );
            else if (s.op === "cancel") {
              approved.splice(approved.indexOf(id), 1);
              ok(await api.post(`/deals/${id}/cancel`, { reason: "Churned", effective_date: "2026-07-30" }));
            } else {
              const body = { deal_id: id, user_id: rep.id, amount: (s.cents % 100_000) / 100 || 1, period: "2026-Q3" };
              ok(await api.post("/commissions/adjustments", { ...body, reason: "correction" }), 201);
            }
          }
          expect(await drifted()).toEqual([]);
        }
        // Whatever the steps: an approved deal adjusted and refunded in part (its clawback lines), then a
        // payout run through July (the rep's draw line and their approved lines), finalized.
        const last = ok<DealDetail>(await api.post("/deals", dealBody(rep.id, { close_date: "2026-07-28" })), 201);
        await approveAsOwner(t, last.id);
        const adjustment = {
          deal_id: last.id,
          user_id: rep.id,
          amount: -12.5,
          period: "2026-Q3",
          reason: "correction",
        };
        ok(await api.post("/commissions/adjustments", adjustment), 201);
        ok(
          await api.post(`/deals/${last.id}/refunds`, { amount: 2500, effective_date: "2026-07-30", reason: "Seats" }),
          201,
        );
        expect(await drifted()).toEqual([]);
        today(t, "2026-08-01");
        const run = await createRun(api, { through: "2026-07-31", pay_date: "2026-08-05", user_ids: [rep.id] });
        await finalizeRun(api, run.id);
        expect(await drifted()).toEqual([]);
      }),
      { numRuns: 12 },
    );
    // Every kind of line was written, and some credits were converted ratios: the property above saw them.
    const { rows } = await sql<{ kind: string; credits: string; ratios: string; quotas: string }>`
      SELECT kind, count(credit) AS credits, count(*) FILTER (WHERE strpos(credit, '/') > 0) AS ratios,
        count(quota) AS quotas
      FROM commission_lines GROUP BY kind ORDER BY kind`.execute(t.db.db);
    const kinds = new Map(rows.map((r) => [r.kind, r]));
    expect([...kinds.keys()]).toEqual(["adjustment", "clawback", "draw", "override", "plan", "spiff"]);
    const plans = kinds.get("plan")!;
    expect([plans.credits, plans.ratios, plans.quotas].map(Number).every((n) => n > 0)).toBe(true);
  }, 600_000);

  it("are generated by the database from the explanation, so no writer can leave them behind", async () => {
    const { rows } = await sql<{ column_name: string; is_generated: string; generation_expression: string }>`
      SELECT column_name, is_generated, generation_expression FROM information_schema.columns
      WHERE table_name = 'commission_lines' AND table_schema = current_schema() AND column_name IN ('credit', 'quota')
      ORDER BY column_name`.execute(t.db.db);
    expect(rows.map((r) => [r.column_name, r.is_generated, r.generation_expression])).toEqual([
      ["credit", "ALWAYS", "(explanation ->> 'credit'::text)"],
      ["quota", "ALWAYS", "(explanation ->> 'quota'::text)"],
    ]);
  });
});
