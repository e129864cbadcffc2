import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompPlanWritten, PlanVersion } from "../../src/comp-plans/testing.js";
import type { Page } from "../../src/http/pagination.js";
import { createUser, errorOf, unknownId } from "../factories.js";
import { Api, assign, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { signedInAs } from "../sessions.js";

/* GET /comp-plans/{id}/versions: every version's terms, newest first, for whoever sees the plan. */

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(() => t.close());

const versionsOf = async (id: string, query = "") =>
  ok<Page<PlanVersion>>(await api.get(`/comp-plans/${id}/versions${query}`));

/** A plan's terms as a version states them (what GET /comp-plans/{id} said while it was current). */
function termsOf(plan: CompPlanWritten) {
  return {
    plan_id: plan.id,
    version: plan.version,
    currency: plan.currency,
    period: plan.period,
    quota: plan.quota,
    base_rate: plan.base_rate,
    tiers: plan.tiers,
    deal_type_multipliers: plan.deal_type_multipliers,
    min_deal_amount: plan.min_deal_amount,
    cap_per_period: plan.cap_per_period,
    override_levels: plan.override_levels,
    effective_from: plan.effective_from,
    effective_to: plan.effective_to,
    clawback: plan.clawback,
    fx_max_age_days: plan.fx_max_age_days,
    created_at: plan.updated_at,
  };
}

describe("GET /comp-plans/{id}/versions", () => {
  it("lists each version's terms, newest first; a name edit makes none; pages by version", async () => {
    const v1 = await createPlan(api, { deal_type_multipliers: { renewal: 0.5 }, cap_per_period: 20000.5 });
    ok<CompPlanWritten>(await api.patch(`/comp-plans/${v1.id}`, { name: "Renamed" }));
    const v2 = ok<CompPlanWritten>(await api.patch(`/comp-plans/${v1.id}`, { quota: 120000 }));
    const v3 = ok<CompPlanWritten>(await api.patch(`/comp-plans/${v1.id}`, { tiers: null, base_rate: 0.05 }));
    expect([v2.version, v3.version]).toEqual([2, 3]);

    const all = await versionsOf(v1.id);
    expect(all.meta).toEqual({ page: 1, per_page: 25, total: 3 });
    expect(all.data).toEqual([termsOf(v3), termsOf(v2), termsOf(v1)]);
    expect(all.data[2]!.tiers).toEqual([
      { from_attainment: 0, rate: 0.1 },
      { from_attainment: 1, rate: 0.15 },
    ]);
    expect(all.data[0]).toMatchObject({ tiers: [], base_rate: 0.05, cap_per_period: 20000.5 });

    const second = await versionsOf(v1.id, "?page=2&per_page=1");
    expect(second.meta).toEqual({ page: 2, per_page: 1, total: 3 });
    expect(second.data.map((v) => v.version)).toEqual([2]);
  });

  it("a draft's version follows its edits until a line uses it", async () => {
    const plan = await createPlan(api, { status: "draft" });
    const edited = ok<CompPlanWritten>(await api.patch(`/comp-plans/${plan.id}`, { quota: 5000 }));
    expect(edited.version).toBe(1);
    const versions = await versionsOf(plan.id);
    expect(versions.data).toEqual([{ ...termsOf(edited), created_at: plan.updated_at }]);
  });

  it("unknown plans are 404, bad pages 422, unknown parameters 422", async () => {
    const missing = await api.get(`/comp-plans/${unknownId("plan")}/versions`);
    expect([missing.statusCode, errorOf(missing).code]).toEqual([404, "not_found"]);
    const plan = await createPlan(api);
    const bad = await api.get(`/comp-plans/${plan.id}/versions?per_page=0`);
    expect([bad.statusCode, errorOf(bad).details?.[0]?.param]).toEqual([422, "per_page"]);
    const unknown = await api.get(`/comp-plans/${plan.id}/versions?status=active`);
    expect([unknown.statusCode, errorOf(unknown).details?.[0]?.param]).toEqual([422, "status"]);
  });

  it("a rep sees the versions of a plan assigned to them and 404 for any other; finance sees every plan's", async () => {
    const rep = await createUser(t, { role: "rep" });
    const theirs = await createPlan(api);
    const other = await createPlan(api);
    await assign(api, theirs.id, rep.id);
    const asRep = await signedInAs(t, rep);
    const seen = await t.app.inject({
      method: "GET",
      url: `/api/v1/comp-plans/${theirs.id}/versions`,
      headers: asRep.headers("GET"),
    });
    expect(seen.statusCode).toBe(200);
    expect((seen.json() as Page<PlanVersion>).data.map((v) => v.version)).toEqual([1]);
    const hidden = await t.app.inject({
      method: "GET",
      url: `/api/v1/comp-plans/${other.id}/versions`,
      headers: asRep.headers("GET"),
    });
    expect([hidden.statusCode, errorOf(hidden).code]).toEqual([404, "not_found"]);
    const finance = await signedInAs(t, { role: "finance" });
    const read = await t.app.inject({
      method: "GET",
      url: `/api/v1/comp-plans/${other.id}/versions`,
      headers: finance.headers("GET"),
    });
    expect(read.statusCode).toBe(200);
  });
});
