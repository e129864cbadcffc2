import { afterAll, beforeAll, expect, it } from "vitest";
import { compareDealOrder } from "../../src/commissions/engine/index.js";
import type { DealDetail } from "../../src/deals/index.js";
import { parse, plain, plus, ZERO } from "../../src/money/index.js";
import { explanationOf } from "../explanations.js";
import { createUser } from "../factories.js";
import { Api, assign, createPlan, dealBody, getDeal, ok, repOnPlan } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";

/** Concurrent changes to one bucket serialize on the rep's lock: no line is priced on stale attainment. */

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(() => t.close());

/** Each line's prior attainment is the credit of the deals before it, and the lines add up to the period's bands. */
async function expectConsistent(ids: string[], userId: string) {
  const deals = await Promise.all(ids.map((id) => getDeal(api, id)));
  const ordered = deals
    .map((d) => ({ ...d, close_date: d.close_date, created_at: d.created_at, id: d.id }))
    .sort(compareDealOrder);
  let prior = ZERO;
  for (const deal of ordered) {
    const line = explanationOf(
      deal.commissions.find((c) => c.user_id === userId && c.kind === "plan"),
      "plan",
    );
    expect(line.prior_attainment, deal.id).toBe(plain(prior));
    prior = plus(prior, parse(line.credit));
  }
}

it("deals created at once for one rep are priced in deal order", async () => {
  const { user } = await repOnPlan(api);
  const results = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      api.post("/deals", dealBody(user.id, { arr_amount: 20000, close_date: `2026-07-${10 + (i % 4)}` })),
    ),
  );
  const ids = results.map((r) => ok<DealDetail>(r, 201).id);
  await expectConsistent(ids, user.id);
  const totals = (await Promise.all(ids.map((id) => getDeal(api, id)))).map((d) => d.total_commission);
  expect(totals.reduce((a, b) => a + b, 0)).toBe(10000 + 60000 * 0.15);
});

it("edits, deletes and creates racing on shared reps leave every bucket consistent", async () => {
  const plan = await createPlan(api);
  const [a, b] = [await createUser(t), await createUser(t)];
  for (const u of [a, b]) await assign(api, plan.id, u.id);
  const split = {
    splits: [
      { user_id: a.id, percent: 50 },
      { user_id: b.id, percent: 50 },
    ],
  };
  const made = [];
  for (let i = 0; i < 4; i++)
    made.push(
      (
        await api.post("/deals", dealBody(a.id, { arr_amount: 40000, close_date: `2026-08-0${i + 1}`, ...split }))
      ).json(),
    );
  const results = await Promise.all([
    api.patch(`/deals/${made[0].id}`, { arr_amount: 80000 }),
    api.patch(`/deals/${made[1].id}`, { close_date: "2026-08-09" }),
    api.del(`/deals/${made[2].id}`),
    api.post("/deals", dealBody(b.id, { arr_amount: 30000, close_date: "2026-08-02", ...split })),
    api.post("/deals", dealBody(a.id, { arr_amount: 10000, close_date: "2026-08-01" })),
  ]);
  expect(results.map((r) => r.statusCode)).toEqual([200, 200, 204, 201, 201]);
  const ids = [made[0].id, made[1].id, made[3].id, results[3]!.json().id];
  await expectConsistent(ids, b.id);
  await expectConsistent([...ids, results[4]!.json().id], a.id);
});
