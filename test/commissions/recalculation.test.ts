import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Commission } from "../../src/commissions/index.js";
import type { AssignmentWritten, CompPlanWritten } from "../../src/comp-plans/testing.js";
import type { DealDetail } from "../../src/deals/index.js";
import type { Page } from "../../src/http/pagination.js";
import type { SpiffWritten } from "../../src/spiffs/testing.js";
import { explanationOf } from "../explanations.js";
import { createUser } from "../factories.js";
import {
  Api,
  approveAsOwner,
  assign,
  createDeal,
  createPlan,
  eventsOf,
  getDeal,
  lineAmounts,
  ok,
  rejectAsOwner,
  repOnPlan,
} from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";

/** Which pending lines a change moves, and that locked ones never move. */

let t: TestApp;
let api: Api;
const clock = new TestClock();
beforeAll(async () => {
  t = await createTestApp({ clock });
  api = new Api(t);
});
afterAll(() => t.close());

const base = (rate: number, extra: Record<string, unknown> = {}) => ({
  tiers: null,
  quota: null,
  base_rate: rate,
  ...extra,
});
const totals = async (...ids: string[]) =>
  Promise.all(ids.map(async (id) => (await getDeal(api, id)).total_commission));

describe("commission.calculated outbox rows", () => {
  it("one per line whose amount changed, with previous_amount (null for a new line)", async () => {
    const { user } = await repOnPlan(api);
    const late = await createDeal(api, user.id, { arr_amount: 100000, close_date: "2026-07-20" });
    const early = await createDeal(api, user.id, { arr_amount: 50000, close_date: "2026-07-10" });
    const mine = (await eventsOf(t, "commission.calculated")).filter((e) => e.object.user_id === user.id);
    expect(mine.map((e) => [e.object.deal_id, e.previous_amount, e.object.amount])).toEqual([
      [late.id, null, 10000],
      [early.id, null, 5000],
      [late.id, 10000, 12500],
    ]);
    expect(mine[2]!.object).toMatchObject({ kind: "plan", status: "pending", locked: false });
    expect(explanationOf(mine[2]!.object as Commission, "plan").prior_attainment).toBe("50000");

    const renamed = ok<DealDetail>(await api.patch(`/deals/${early.id}`, { opportunity_name: "Renamed" }));
    expect(renamed.opportunity_name).toBe("Renamed");
    const after = (await eventsOf(t, "commission.calculated")).filter((e) => e.object.user_id === user.id);
    expect(after).toHaveLength(3);
    const updated = (await eventsOf(t, "deal.updated")).filter((e) => e.object.id === early.id);
    expect(updated).toHaveLength(1);
    expect(updated[0]!.object).not.toHaveProperty("commissions");
  });

  it("a line whose content is unchanged is not rewritten; one never digested (older data) is, once", async () => {
    const { user } = await repOnPlan(api);
    const early = await createDeal(api, user.id, { arr_amount: 50000, close_date: "2026-08-10" });
    const late = await createDeal(api, user.id, { arr_amount: 100000, close_date: "2026-08-20" });
    const lineOf = (dealId: string) =>
      t.db.db
        .selectFrom("commission_lines")
        .select(["id", "calculated_at", "explanation_digest"])
        .where("deal_id", "=", dealId)
        .executeTakeFirstOrThrow();
    const before = await lineOf(late.id);
    expect(before.explanation_digest).toMatch(/^[A-Za-z0-9_-]{27}$/);

    // Renaming the earlier deal recomputes the bucket; the later line comes out the same.
    clock.advance(5); // a later calculated_at if the line is rewritten
    ok<DealDetail>(await api.patch(`/deals/${early.id}`, { opportunity_name: "Renamed once" }));
    expect(await lineOf(late.id)).toEqual(before);

    // A line written before digests existed is rewritten with the same content and gets its digest.
    await t.db.db
      .updateTable("commission_lines")
      .set({ explanation_digest: null })
      .where("id", "=", before.id)
      .execute();
    clock.advance(5); // a later calculated_at if the line is rewritten
    ok<DealDetail>(await api.patch(`/deals/${early.id}`, { opportunity_name: "Renamed twice" }));
    const healed = await lineOf(late.id);
    expect(healed.explanation_digest).toBe(before.explanation_digest);
    expect(new Date(healed.calculated_at).getTime()).toBeGreaterThan(new Date(before.calculated_at).getTime());
    expect((await getDeal(api, late.id)).total_commission).toBe(12500);
  });

  it("deal.created carries the deal with its final total and comes before its line events", async () => {
    const { user } = await repOnPlan(api);
    const deal = await createDeal(api, user.id, { arr_amount: 20000 });
    const rows = await t.db.db.selectFrom("events").select(["type", "data"]).orderBy("id").execute();
    const mine = rows.filter((r) => JSON.stringify(r.data).includes(deal.id)).map((r) => r.type);
    expect(mine).toEqual(["deal.created", "commission.calculated"]);
    const created = (await eventsOf(t, "deal.created")).find((e) => e.object.id === deal.id)!;
    expect(created.object.total_commission).toBe(2000);
  });
});

describe("the affected set of a deal change", () => {
  it("a split change recalculates the old and the new user's buckets", async () => {
    const plan = await createPlan(api);
    const [a, b] = [await createUser(t), await createUser(t)];
    for (const u of [a, b]) await assign(api, plan.id, u.id);
    const moving = await createDeal(api, a.id, { arr_amount: 100000, close_date: "2026-07-01" });
    const laterA = await createDeal(api, a.id, { arr_amount: 10000, close_date: "2026-07-10" });
    const laterB = await createDeal(api, b.id, { arr_amount: 10000, close_date: "2026-07-10" });
    expect(await totals(laterA.id, laterB.id)).toEqual([1500, 1000]);
    const moved = ok<DealDetail>(await api.patch(`/deals/${moving.id}`, { splits: [{ user_id: b.id, percent: 100 }] }));
    expect(lineAmounts(moved)).toEqual([["plan", b.id, 10000]]);
    expect(await totals(laterA.id, laterB.id)).toEqual([1000, 1500]);
  });

  it("splits never given follow owner_id; given splits stay; splits: null goes back to the owner", async () => {
    const plan = await createPlan(api, base(0.1));
    const [a, b] = [await createUser(t), await createUser(t)];
    for (const u of [a, b]) await assign(api, plan.id, u.id);
    const deal = await createDeal(api, a.id);
    const followed = ok<DealDetail>(await api.patch(`/deals/${deal.id}`, { owner_id: b.id }));
    expect(followed.splits).toEqual([{ user_id: b.id, percent: 100 }]);
    expect(lineAmounts(followed)).toEqual([["plan", b.id, 1000]]);
    const fixed = ok<DealDetail>(await api.patch(`/deals/${deal.id}`, { splits: [{ user_id: b.id, percent: 100 }] }));
    const kept = ok<DealDetail>(await api.patch(`/deals/${fixed.id}`, { owner_id: a.id }));
    expect(kept.splits).toEqual([{ user_id: b.id, percent: 100 }]);
    const reset = ok<DealDetail>(await api.patch(`/deals/${deal.id}`, { splits: null }));
    expect(reset.splits).toEqual([{ user_id: a.id, percent: 100 }]);
    expect(lineAmounts(reset)).toEqual([["plan", a.id, 1000]]);
  });

  it("a deal moving to another period recalculates both periods", async () => {
    const { user } = await repOnPlan(api);
    const moving = await createDeal(api, user.id, { arr_amount: 100000, close_date: "2026-07-01" });
    const q3 = await createDeal(api, user.id, { arr_amount: 10000, close_date: "2026-08-01" });
    const q4 = await createDeal(api, user.id, { arr_amount: 10000, close_date: "2026-11-01" });
    expect(await totals(q3.id, q4.id)).toEqual([1500, 1000]);
    const moved = ok<DealDetail>(await api.patch(`/deals/${moving.id}`, { close_date: "2026-10-01" }));
    expect(moved.commissions[0]!.period).toBe("2026-Q4");
    expect(await totals(q3.id, q4.id)).toEqual([1000, 1500]);
  });

  it("deleting a deal recalculates the deals it preceded", async () => {
    const { user } = await repOnPlan(api);
    const first = await createDeal(api, user.id, { arr_amount: 100000, close_date: "2026-07-01" });
    const second = await createDeal(api, user.id, { arr_amount: 10000, close_date: "2026-07-02" });
    expect(await totals(second.id)).toEqual([1500]);
    ok(await api.del(`/deals/${first.id}`), 204);
    expect(await totals(second.id)).toEqual([1000]);
    expect((await api.get(`/deals/${first.id}`)).statusCode).toBe(404);
    expect(ok<Page<Commission>>(await api.get(`/commissions?deal_id=${first.id}`)).meta.total).toBe(0);
  });

  it("locked lines keep their amounts, count toward attainment and use the cap first", async () => {
    const { user, plan } = await repOnPlan(api, base(0.1, { cap_per_period: 5000 }));
    const locked = await createDeal(api, user.id, { arr_amount: 40000, close_date: "2026-07-30" });
    await approveAsOwner(t, locked.id);
    const pending = await createDeal(api, user.id, { arr_amount: 20000, close_date: "2026-07-01" });
    expect(pending.commissions[0]!.amount).toBe(1000);
    expect(explanationOf(pending.commissions[0], "plan").cap).toEqual({ limit: "5000", before: "4000", applied: true });
    ok<CompPlanWritten>(await api.patch(`/comp-plans/${plan.id}`, { cap_per_period: 4500 }));
    expect(await totals(pending.id, locked.id)).toEqual([500, 4000]);
  });

  it("editing a rejected deal resubmits it as pending and recalculates its lines", async () => {
    const { user } = await repOnPlan(api, base(0.1));
    const deal = await createDeal(api, user.id, { arr_amount: 10000 });
    await rejectAsOwner(t, deal.id);
    const voided = await getDeal(api, deal.id);
    expect([voided.status, voided.total_commission, voided.commissions[0]!.status]).toEqual(["rejected", 0, "void"]);
    const again = ok<DealDetail>(await api.patch(`/deals/${deal.id}`, { arr_amount: 20000 }));
    expect(again).toMatchObject({ status: "pending", rejection_reason: null, total_commission: 2000 });
    expect(again.commissions).toHaveLength(1);
    expect(again.commissions[0]).toMatchObject({ id: deal.commissions[0]!.id, status: "pending", amount: 2000 });
  });
});

describe("plan, assignment and SPIFF changes", () => {
  it("assignments: creating one prices unplanned deals, editing re-prices, deleting takes the lines away", async () => {
    const user = await createUser(t);
    const deal = await createDeal(api, user.id, { arr_amount: 100000 });
    expect(deal.explanation?.no_plan[0]?.reason).toBe("no plan assignment in force on 2026-07-15");
    const plan = await createPlan(api);
    const asg = await assign(api, plan.id, user.id, { effective_from: "2026-07-01", effective_to: "2026-09-30" });
    expect(asg.recalculation_job_id).toBeNull();
    let now = await getDeal(api, deal.id);
    expect([now.total_commission, now.explanation]).toEqual([10000, null]);
    ok<AssignmentWritten>(await api.patch(`/plan-assignments/${asg.id}`, { quota_override: 50000 }));
    now = await getDeal(api, deal.id);
    expect(now.total_commission).toBe(12500);
    expect(explanationOf(now.commissions[0], "plan").quota).toBe("50000");
    ok<AssignmentWritten>(await api.patch(`/plan-assignments/${asg.id}`, { effective_to: "2026-07-14" }));
    now = await getDeal(api, deal.id);
    expect([now.total_commission, now.commissions]).toEqual([0, []]);
    ok<AssignmentWritten>(await api.patch(`/plan-assignments/${asg.id}`, { effective_to: null }));
    expect(await totals(deal.id)).toEqual([12500]);
    ok(await api.del(`/plan-assignments/${asg.id}`), 204);
    now = await getDeal(api, deal.id);
    expect([now.total_commission, now.explanation?.no_plan[0]?.user_id]).toEqual([0, user.id]);
  });

  it("archiving a plan removes its pending lines (saying why) and keeps locked ones", async () => {
    const { user, plan } = await repOnPlan(api, base(0.1));
    const locked = await createDeal(api, user.id, { arr_amount: 10000, close_date: "2026-07-01" });
    await approveAsOwner(t, locked.id);
    const pending = await createDeal(api, user.id, { arr_amount: 10000, close_date: "2026-07-02" });
    const archived = ok<CompPlanWritten>(await api.patch(`/comp-plans/${plan.id}`, { status: "archived" }));
    expect(archived.version).toBe(1);
    const [l, p] = [await getDeal(api, locked.id), await getDeal(api, pending.id)];
    expect(l.total_commission).toBe(1000);
    expect(p.commissions).toEqual([]);
    expect(p.explanation?.no_plan[0]?.reason).toBe(`plan ${plan.id} is archived`);
    ok<CompPlanWritten>(await api.patch(`/comp-plans/${plan.id}`, { status: "active" }));
    expect(explanationOf((await getDeal(api, pending.id)).commissions[0], "plan").prior_attainment).toBe("10000");
  });

  it("SPIFF changes move pending deals' SPIFF lines only; locked deals never gain or lose lines", async () => {
    const { user } = await repOnPlan(api, base(0.1));
    const locked = await createDeal(api, user.id, { arr_amount: 10000, close_date: "2026-08-01" });
    await approveAsOwner(t, locked.id);
    const pending = await createDeal(api, user.id, { arr_amount: 10000, close_date: "2026-08-02" });
    const outside = await createDeal(api, user.id, { arr_amount: 10000, close_date: "2026-09-15" });
    const window = { starts_on: "2026-08-01", ends_on: "2026-08-31" };
    const spiff = ok<SpiffWritten>(
      await api.post("/spiffs", { name: "Aug", ...window, payout: { type: "rate", rate: 0.05 } }),
      201,
    );
    expect(spiff.recalculation_job_id).toBeNull();
    expect(await totals(locked.id, pending.id, outside.id)).toEqual([1000, 1500, 1000]);
    ok<SpiffWritten>(await api.patch(`/spiffs/${spiff.id}`, { payout: { type: "flat", amount: 250 } }));
    expect(await totals(pending.id)).toEqual([1250]);
    ok<SpiffWritten>(await api.patch(`/spiffs/${spiff.id}`, { ends_on: "2026-09-30" }));
    expect(await totals(pending.id, outside.id)).toEqual([1250, 1250]);
    ok<SpiffWritten>(await api.patch(`/spiffs/${spiff.id}`, { active: false }));
    expect(await totals(pending.id, outside.id)).toEqual([1000, 1000]);
    ok<SpiffWritten>(await api.patch(`/spiffs/${spiff.id}`, { active: true }));
    ok(await api.del(`/spiffs/${spiff.id}`), 204);
    expect(await totals(locked.id, pending.id, outside.id)).toEqual([1000, 1000, 1000]);
  });
});
