import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DealDetail } from "../../src/deals/index.js";
import { errorOf } from "../factories.js";
import {
  Api,
  approveAsOwner,
  createDeal,
  type LockedStatus,
  ok,
  rejectAsOwner,
  repOnPlan,
} from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { approvedDeal, cancel, getDealOf, peopleOnPlan, policyOf, refund } from "./support.js";

/** Cancel, refund and preview: their checks (422, 409), the preview against the action, attainment, contracts. */

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(() => t.close());

async function dealIn(status: LockedStatus | "pending" | "rejected" | "cancelled") {
  const { users } = await peopleOnPlan(api, policyOf());
  const deal = await createDeal(api, users[0]!.id, { close_date: "2026-01-15" });
  if (status === "rejected") await rejectAsOwner(t, deal.id);
  else if (status === "cancelled") {
    await approveAsOwner(t, deal.id);
    await cancel(api, deal.id, "2026-02-01");
  } else if (status !== "pending") await approveAsOwner(t, deal.id, status);
  return deal;
}

describe("POST /deals/{id}/cancel refuses", () => {
  it.each([
    ["pending", "only approved and paid deals can be cancelled; reject it instead (POST /deals/{id}/reject)"],
    [
      "disputed",
      "only approved and paid deals can be cancelled; resolve the dispute first (POST /disputes/{id}/resolve)",
    ],
    ["rejected", "only approved and paid deals can be cancelled"],
    ["cancelled", "only approved and paid deals can be cancelled"],
  ] as const)("a %s deal → 409 invalid_transition, nothing written", async (status, message) => {
    const deal = await dealIn(status);
    const before = await getDealOf(api, deal.id);
    const res = await api.post(`/deals/${deal.id}/cancel`, { reason: "x", effective_date: "2026-02-01" });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toMatchObject({
      code: "invalid_transition",
      message: `Deal ${deal.id} is ${status}; ${message}`,
    });
    expect(await getDealOf(api, deal.id)).toEqual(before);
  });

  it("422 before 409: effective_date before close_date, a missing reason", async () => {
    const deal = await dealIn("pending");
    const early = await api.post(`/deals/${deal.id}/cancel`, { reason: "x", effective_date: "2026-01-14" });
    expect(early.statusCode).toBe(422);
    expect(errorOf(early).details).toEqual([
      { param: "effective_date", message: "must be on or after the deal's close_date (2026-01-15)" },
    ]);
    const bare = await api.post(`/deals/${deal.id}/cancel`, { effective_date: "2026-02-01" });
    expect([bare.statusCode, errorOf(bare).details?.[0]?.param]).toEqual([422, "reason"]);
  });

  it("a paid deal is cancelled; its paid lines stay paid, the clawback line is approved", async () => {
    const deal = await dealIn("paid");
    const cancelled = await cancel(api, deal.id, "2026-02-01");
    expect(cancelled.commissions.map((c) => [c.kind, c.status, c.amount])).toEqual([
      ["plan", "paid", 1000],
      ["clawback", "approved", -1000],
    ]);
    const listed = ok<{ data: { id: string }[] }>(await api.get("/deals?status=cancelled&per_page=100"));
    expect(listed.data.map((d) => d.id)).toContain(deal.id);
  });

  it("of concurrent cancels one wins; the other gets 409", async () => {
    const deal = await dealIn("approved");
    const body = { reason: "x", effective_date: "2026-02-01" };
    const results = await Promise.all([
      api.post(`/deals/${deal.id}/cancel`, body),
      api.post(`/deals/${deal.id}/cancel`, body),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await getDealOf(api, deal.id)).commissions.filter((c) => c.kind === "clawback")).toHaveLength(1);
  });
});

describe("POST /deals/{id}/refunds refuses", () => {
  it.each(["pending", "disputed", "rejected", "cancelled"] as const)("a %s deal → 409", async (status) => {
    const deal = await dealIn(status);
    const res = await api.post(`/deals/${deal.id}/refunds`, { amount: 10, effective_date: "2026-02-01" });
    expect([res.statusCode, errorOf(res).code]).toEqual([409, "invalid_transition"]);
  });

  it("422: more than arr_amount, 0, three decimals, an early effective_date", async () => {
    const deal = await dealIn("approved");
    const cases = [
      [{ amount: 10000.01, effective_date: "2026-02-01" }, "amount"],
      [{ amount: 0, effective_date: "2026-02-01" }, "amount"],
      [{ amount: 1.005, effective_date: "2026-02-01" }, "amount"],
      [{ amount: 1, effective_date: "2026-01-01" }, "effective_date"],
    ] as const;
    for (const [body, param] of cases) {
      const res = await api.post(`/deals/${deal.id}/refunds`, body);
      expect([res.statusCode, errorOf(res).details?.[0]?.param], JSON.stringify(body)).toEqual([422, param]);
    }
  });
});

describe("POST /deals/{id}/clawback-preview", () => {
  it("equals what the cancel then writes, and writes nothing", async () => {
    const { users } = await peopleOnPlan(api, policyOf({ percent: 37.5 }), 2);
    const deal = await approvedDeal(api, users[0]!.id, {
      arr_amount: 33333.33,
      close_date: "2026-01-15",
      splits: [
        { user_id: users[0]!.id, percent: 70 },
        { user_id: users[1]!.id, percent: 30 },
      ],
    });
    await refund(api, deal.id, 1234.56, "2026-01-20");
    const body = { type: "cancel", effective_date: "2026-03-01" };
    const before = await getDealOf(api, deal.id);
    const preview = ok<{ clawback_summary: unknown[]; lines: Record<string, unknown>[] }>(
      await api.post(`/deals/${deal.id}/clawback-preview`, body),
    );
    expect(await getDealOf(api, deal.id)).toEqual(before);
    const cancelled = await cancel(api, deal.id, "2026-03-01");
    const written = cancelled.commissions
      .filter(
        (c) => c.kind === "clawback" && (c.explanation as { trigger: { type: string } }).trigger.type === "cancel",
      )
      // A preview line is a PreviewLine: no id, status, run or draw yet.
      .map(
        ({ id: _id, deal_id: _d, status: _s, locked: _l, calculated_at: _c, payout_run_id: _r, draw_id: _w, ...l }) =>
          l,
      );
    // 2,333.33 and 1,000.00 earned; 37.5 % of each less the refund's 32.41 and 13.89.
    expect(written.map((l) => l.amount)).toEqual([-842.59, -361.11]);
    // The same computation; the written lines also carry the cancellation's reason (a preview has none).
    expect(preview.lines).toEqual(
      written.map((l) => {
        const explanation = l.explanation as { summary: string; reason: string };
        expect(explanation.reason).toBe("Customer churned");
        return {
          ...l,
          explanation: {
            ...explanation,
            summary: explanation.summary.replace(". Reason: Customer churned", ""),
            reason: null,
          },
        };
      }),
    );
    expect(preview.clawback_summary).toEqual(cancelled.clawback_summary);
  });

  it("a refund preview needs amount; a cancel preview refuses one; statuses as the action's", async () => {
    const deal = await dealIn("pending");
    const none = await api.post(`/deals/${deal.id}/clawback-preview`, { type: "refund", effective_date: "2026-02-01" });
    expect([none.statusCode, errorOf(none).details?.[0]?.param]).toEqual([422, "amount"]);
    const extra = await api.post(`/deals/${deal.id}/clawback-preview`, {
      type: "cancel",
      effective_date: "2026-02-01",
      amount: 5,
    });
    expect([extra.statusCode, errorOf(extra).details?.[0]?.param]).toEqual([422, "amount"]);
    const pending = await api.post(`/deals/${deal.id}/clawback-preview`, {
      type: "cancel",
      effective_date: "2026-02-01",
    });
    expect([pending.statusCode, errorOf(pending).message]).toEqual([
      409,
      `Deal ${deal.id} is pending; only approved and paid deals can be cancelled; reject it instead (POST /deals/{id}/reject)`,
    ]);
  });
});

it("attainment never changes: a cancelled deal keeps counting for a later deal (§5's worked example)", async () => {
  const { user } = await repOnPlan(api); // quota 100,000; 10 % to quota, 15 % beyond
  const first = await approvedDeal(api, user.id, { arr_amount: 90000, close_date: "2026-07-01" });
  const pendingLater = await createDeal(api, user.id, { arr_amount: 30000, close_date: "2026-07-20" });
  expect(pendingLater.total_commission).toBe(4000);
  ok(
    await api.patch(`/comp-plans/${(await getDealOf(api, first.id)).commissions[0]!.plan_id}`, {
      clawback: policyOf({ window_days: 365 }),
    }),
  );
  await cancel(api, first.id, "2026-07-10");
  expect((await getDealOf(api, pendingLater.id)).total_commission).toBe(4000);
  const createdAfter = await createDeal(api, user.id, { arr_amount: 30000, close_date: "2026-07-25" });
  expect(createdAfter.commissions.map((c) => c.amount)).toEqual([4500]);
  const statement = ok<{ totals: Record<string, number>; plans: { attainment: number }[] }>(
    await api.get(`/users/${user.id}/statement?period=2026-Q3`),
  );
  expect(statement.plans[0]!.attainment).toBe(150000);
  expect(statement.totals).toMatchObject({ plan: 17500, clawback: 0 });
});

describe("contract_start and contract_end", () => {
  it("both or neither, start before end (422), on create, PATCH and bulk", async () => {
    const { user } = await repOnPlan(api);
    const one = await api.post("/deals", {
      opportunity_name: "C",
      arr_amount: 1,
      close_date: "2026-07-01",
      owner_id: user.id,
      contract_start: "2026-07-01",
    });
    expect(errorOf(one).details).toEqual([
      { param: "contract_end", message: "is required with contract_start (give both or neither)" },
    ]);
    const deal = await createDeal(api, user.id);
    const reversed = await api.patch(`/deals/${deal.id}`, { contract_start: "2026-08-01", contract_end: "2026-08-01" });
    expect(errorOf(reversed).details).toEqual([
      { param: "contract_end", message: "must be after contract_start (2026-08-01)" },
    ]);
    const bulk = await api.post("/deals/bulk", {
      deals: [
        {
          external_id: "ct-1",
          opportunity_name: "B",
          arr_amount: 1,
          close_date: "2026-07-01",
          owner_id: user.id,
          contract_end: "2027-01-01",
        },
      ],
    });
    expect(errorOf(bulk).details).toEqual([
      { param: "deals[0].contract_start", message: "is required with contract_end (give both or neither)" },
    ]);
  });

  it("a change to only them is allowed on a locked deal and moves no line; any other change is 409", async () => {
    const { user } = await repOnPlan(api);
    const deal = await approvedDeal(api, user.id, { external_id: "ct-locked" });
    const before = await getDealOf(api, deal.id);
    const patched = ok<DealDetail>(
      await api.patch(`/deals/${deal.id}`, { contract_start: "2026-07-01", contract_end: "2027-07-01" }),
    );
    expect(patched).toMatchObject({ status: "approved", contract_start: "2026-07-01", contract_end: "2027-07-01" });
    expect(patched.commissions).toEqual(before.commissions);
    const renamed = await api.patch(`/deals/${deal.id}`, {
      opportunity_name: "Other",
      contract_start: null,
      contract_end: null,
    });
    expect([renamed.statusCode, errorOf(renamed).code]).toEqual([409, "invalid_transition"]);
    const { id: _id, status: _s, ...rest } = patched;
    const upserted = await api.put("/deals/by-external-id/ct-locked", {
      opportunity_name: rest.opportunity_name,
      arr_amount: rest.arr_amount,
      close_date: rest.close_date,
      owner_id: rest.owner_id,
      contract_start: null,
      contract_end: null,
    });
    expect(ok<DealDetail>(upserted)).toMatchObject({ status: "approved", contract_start: null, contract_end: null });
  });
});

it("a clawback policy change on an active plan makes a new version; the clawed lines' version decides", async () => {
  const { plan, users } = await peopleOnPlan(api, null);
  const deal = await approvedDeal(api, users[0]!.id, { close_date: "2026-01-15" });
  const changed = ok<{ version: number; clawback: unknown }>(
    await api.patch(`/comp-plans/${plan.id}`, { clawback: policyOf({ percent: 12.3456 }) }),
  );
  expect(changed).toMatchObject({ version: 2, clawback: { window_days: 90, percent: 12.3456, proration: "none" } });
  const cancelled = await cancel(api, deal.id, "2026-02-01");
  expect(cancelled.clawback_summary).toEqual([
    {
      user_id: users[0]!.id,
      plan_id: plan.id,
      currency: "USD",
      amount: 0,
      note: `no clawback policy on plan ${plan.name} (version 1)`,
    },
  ]);
  const bad = await api.patch(`/comp-plans/${plan.id}`, {
    clawback: { window_days: 0, percent: 101, proration: "some" },
  });
  expect(
    errorOf(bad)
      .details?.map((d) => d.param)
      .sort(),
  ).toEqual(["clawback.percent", "clawback.proration", "clawback.window_days"]);
});
