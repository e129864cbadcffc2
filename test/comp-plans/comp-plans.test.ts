import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Assignment, CompPlan } from "../../src/comp-plans/index.js";
import type { AssignmentWritten, CompPlanWritten } from "../../src/comp-plans/testing.js";
import type { Page } from "../../src/http/pagination.js";
import { createUser, errorOf, unknownId } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, ok, planBody } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(() => t.close());

const details = (res: LightMyRequestResponse) => errorOf(res).details ?? [];

describe("comp plans", () => {
  it("creates with defaults and reads back exact numbers", async () => {
    const plan = await createPlan(api, {
      deal_type_multipliers: { expansion: 1.25 },
      min_deal_amount: 1000.5,
      cap_per_period: 50000,
      effective_to: "2026-12-31",
    });
    expect(plan).toMatchObject({
      status: "active",
      currency: "USD",
      period: "quarter",
      quota: 100000,
      base_rate: null,
      tiers: [
        { from_attainment: 0, rate: 0.1 },
        { from_attainment: 1, rate: 0.15 },
      ],
      deal_type_multipliers: { expansion: 1.25 },
      min_deal_amount: 1000.5,
      cap_per_period: 50000,
      effective_from: "2026-01-01",
      effective_to: "2026-12-31",
      version: 1,
      description: null,
      recalculation_job_id: null,
    });
    expect(ok<CompPlan>(await api.get(`/comp-plans/${plan.id}`))).toEqual({ ...plan, recalculation_job_id: undefined });
  });

  it.each([
    [
      { tiers: [{ from_attainment: 0.5, rate: 0.1 }] },
      "tiers[0].from_attainment",
      "must be 0: the first band starts at 0 % of quota",
    ],
    [
      {
        tiers: [
          { from_attainment: 0, rate: 0.1 },
          { from_attainment: 1.5, rate: 0.2 },
          { from_attainment: 1.5, rate: 0.3 },
        ],
      },
      "tiers[2].from_attainment",
      "must be greater than tiers[1].from_attainment (1.5): tiers ascend",
    ],
    [{ quota: null }, "quota", "must be greater than 0 for a plan with tiers"],
    [{ quota: 0 }, "quota", "must be greater than 0 for a plan with tiers"],
    [{ tiers: null, quota: null }, "base_rate", "is required when the plan has no tiers (give base_rate or tiers)"],
    [{ tiers: [{ from_attainment: 0, rate: 10.5 }] }, "tiers[0].rate", "must be at most 10"],
    [{ base_rate: 0.1234567, tiers: null }, "base_rate", "must have at most 6 decimal places"],
    [{ base_rate: -0.1, tiers: null }, "base_rate", "must be at least 0"],
    [
      { deal_type_multipliers: { upsell: 2 } },
      "deal_type_multipliers.upsell",
      "is not a deal type (new_business, expansion, renewal, other)",
    ],
    [{ deal_type_multipliers: { renewal: -1 } }, "deal_type_multipliers.renewal", "must be at least 0"],
    [{ effective_to: "2025-12-31" }, "effective_to", "must be on or after effective_from (2026-01-01)"],
    [{ currency: "EURO" }, "currency", "must be an ISO 4217 code of 3 uppercase letters, such as USD"],
    [{ quota: 100.001 }, "quota", "must have at most 2 decimal places for USD"],
    [{ period: "week" }, "period", "must be one of: month, quarter, year"],
    [{ version: 3 }, "version", "is read-only and cannot be set"],
  ])("%j → 422 naming %s", async (override, param, message) => {
    const res = await api.post("/comp-plans", planBody(override));
    expect(res.statusCode, res.body).toBe(422);
    const detail = details(res).find((d) => d.param === param);
    expect(detail, res.body).toBeDefined();
    expect(detail!.message).toBe(message);
  });

  it("name is required; so are period and effective_from", async () => {
    const res = await api.post("/comp-plans", { base_rate: 0.1 });
    expect(
      details(res)
        .map((d) => d.param)
        .sort(),
    ).toEqual(["effective_from", "name", "period"]);
  });

  it("editing an active plan's terms creates a version; name and status edits keep it", async () => {
    const plan = await createPlan(api);
    const renamed = ok<CompPlanWritten>(
      await api.patch(`/comp-plans/${plan.id}`, { name: "Renamed", description: "d" }),
    );
    expect(renamed.version).toBe(1);
    const retiered = ok<CompPlanWritten>(await api.patch(`/comp-plans/${plan.id}`, { quota: 120000 }));
    expect([retiered.version, retiered.quota]).toEqual([2, 120000]);
    const same = ok<CompPlanWritten>(await api.patch(`/comp-plans/${plan.id}`, { quota: 120000, tiers: plan.tiers }));
    expect(same.version).toBe(2);
    expect(same.updated_at).toBe(retiered.updated_at);
    const versions = await t.db.db
      .selectFrom("comp_plan_versions")
      .select(["version", "quota"])
      .where("plan_id", "=", plan.id)
      .orderBy("version")
      .execute();
    expect(versions.map((v) => [v.version, Number(v.quota)])).toEqual([
      [1, 100000],
      [2, 120000],
    ]);
    const bad = await api.patch(`/comp-plans/${plan.id}`, { tiers: [{ from_attainment: 1, rate: 0.1 }] });
    expect(details(bad)).toEqual([
      { param: "tiers[0].from_attainment", message: "must be 0: the first band starts at 0 % of quota" },
    ]);
    const cleared = ok<CompPlanWritten>(await api.patch(`/comp-plans/${plan.id}`, { tiers: null, base_rate: 0.05 }));
    expect([cleared.tiers, cleared.base_rate, cleared.version]).toEqual([[], 0.05, 3]);
  });

  it("a draft's terms change in place until a line uses its version", async () => {
    const plan = await createPlan(api, { status: "draft" });
    expect(ok<CompPlanWritten>(await api.patch(`/comp-plans/${plan.id}`, { quota: 5000 })).version).toBe(1);
    const user = await createUser(t);
    await assign(api, plan.id, user.id);
    ok<CompPlanWritten>(await api.patch(`/comp-plans/${plan.id}`, { status: "active" }));
    await approveAsOwner(t, (await createDeal(api, user.id)).id);
    const active = ok<CompPlanWritten>(await api.patch(`/comp-plans/${plan.id}`, { status: "draft" }));
    expect(active.version).toBe(1);
    expect(ok<CompPlanWritten>(await api.patch(`/comp-plans/${plan.id}`, { quota: 6000 })).version).toBe(2);
  });

  it("lists newest first, filtered by status", async () => {
    const archived = await createPlan(api, { status: "archived" });
    const list = ok<Page<CompPlan>>(await api.get("/comp-plans?status=archived&per_page=100"));
    expect(list.data.every((p) => p.status === "archived")).toBe(true);
    expect(list.data[0]!.id).toBe(archived.id);
    expect(details(await api.get("/comp-plans?status=gone"))[0]!.param).toBe("status");
    expect((await api.get(`/comp-plans/${unknownId("plan")}`)).statusCode).toBe(404);
  });
});

describe("plan assignments", () => {
  it("creates, lists, updates and deletes", async () => {
    const plan = await createPlan(api);
    const user = await createUser(t);
    const asg = await assign(api, plan.id, user.id, { effective_to: "2026-06-30", quota_override: 80000 });
    expect(asg).toMatchObject({
      plan_id: plan.id,
      user_id: user.id,
      effective_from: "2026-01-01",
      effective_to: "2026-06-30",
      quota_override: 80000,
      recalculation_job_id: null,
    });
    expect(asg.id).toMatch(/^asg_/);
    const list = ok<Page<Assignment>>(await api.get(`/comp-plans/${plan.id}/assignments`));
    expect(list.data.map((a) => a.id)).toEqual([asg.id]);
    expect(ok<Page<Assignment>>(await api.get(`/comp-plans/${plan.id}/assignments?user_id=usr_other`)).meta.total).toBe(
      0,
    );
    const updated = ok<AssignmentWritten>(
      await api.patch(`/plan-assignments/${asg.id}`, { quota_override: null, effective_to: null }),
    );
    expect([updated.quota_override, updated.effective_to]).toEqual([null, null]);
    expect((await api.del(`/plan-assignments/${asg.id}`)).statusCode).toBe(204);
    expect((await api.del(`/plan-assignments/${asg.id}`)).statusCode).toBe(404);
  });

  it("a user has at most one assignment in force on any date: overlaps are 409 conflict", async () => {
    const [p1, p2] = [await createPlan(api), await createPlan(api)];
    const user = await createUser(t);
    const first = await assign(api, p1.id, user.id, { effective_from: "2026-01-01", effective_to: "2026-06-30" });
    const overlap = await api.post(`/comp-plans/${p2.id}/assignments`, {
      user_id: user.id,
      effective_from: "2026-06-30",
    });
    expect(overlap.statusCode).toBe(409);
    expect(errorOf(overlap).code).toBe("conflict");
    expect(errorOf(overlap).message).toContain(first.id);
    const openEnded = await api.post(`/comp-plans/${p2.id}/assignments`, {
      user_id: user.id,
      effective_from: "2025-01-01",
    });
    expect(openEnded.statusCode).toBe(409);
    const next = await assign(api, p2.id, user.id, { effective_from: "2026-07-01" });
    expect((await api.patch(`/plan-assignments/${next.id}`, { effective_from: "2026-06-01" })).statusCode).toBe(409);
    expect((await api.patch(`/plan-assignments/${first.id}`, { effective_to: null })).statusCode).toBe(409);
  });

  it("concurrent overlapping assignments: exactly one wins", async () => {
    const [p1, p2] = [await createPlan(api), await createPlan(api)];
    const user = await createUser(t);
    const results = await Promise.all(
      [p1, p2].map((p) =>
        api.post(`/comp-plans/${p.id}/assignments`, { user_id: user.id, effective_from: "2026-01-01" }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it("validation: dates ordered, users real, tiered overrides above 0, unknown plan 404", async () => {
    const plan = await createPlan(api);
    const user = await createUser(t);
    const post = (body: unknown) => api.post(`/comp-plans/${plan.id}/assignments`, body);
    expect(details(await post({ user_id: user.id, effective_from: "2026-02-01", effective_to: "2026-01-01" }))).toEqual(
      [{ param: "effective_to", message: "must be on or after effective_from (2026-02-01)" }],
    );
    expect(details(await post({ user_id: "usr_ghost", effective_from: "2026-01-01" }))).toEqual([
      { param: "user_id", message: "user usr_ghost does not exist" },
    ]);
    expect(details(await post({ user_id: user.id, effective_from: "2026-01-01", quota_override: 0 }))).toEqual([
      { param: "quota_override", message: `must be greater than 0: plan ${plan.id} has tiers` },
    ]);
    expect(details(await post({ user_id: user.id, effective_from: "2026-01-01", plan_id: "x" }))[0]!.param).toBe(
      "plan_id",
    );
    const missing = await api.post(`/comp-plans/${unknownId("plan")}/assignments`, {
      user_id: user.id,
      effective_from: "2026-01-01",
    });
    expect(missing.statusCode).toBe(404);
  });
});
