import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompPlan } from "../../src/comp-plans/index.js";
import type { CompPlanWritten, PlanVersion } from "../../src/comp-plans/testing.js";
import type { Page } from "../../src/http/pagination.js";
import { createUser, errorOf, unique } from "../factories.js";
import { Api, assign, createPlan, ok, TIERS } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";

/* API.md §16: plans of kind "override" (levels by depth, none of a standard plan's rating terms, kind fixed)
 * and "one assignment in force per plan kind on any date". */

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(() => t.close());

const LEVELS = [
  { depth: 1, rate: 0.03 },
  { depth: 2, rate: 0.01 },
];

function overrideBody(overrides: Record<string, unknown> = {}) {
  return {
    name: unique("Overrides"),
    kind: "override",
    period: "quarter",
    effective_from: "2026-01-01",
    override_levels: LEVELS,
    ...overrides,
  };
}

const createOverridePlan = async (overrides: Record<string, unknown> = {}) =>
  ok<CompPlanWritten>(await api.post("/comp-plans", overrideBody(overrides)), 201);

/** The 422's details as [param, message]. */
function refused(res: LightMyRequestResponse): [string, string][] {
  expect(res.statusCode, res.body).toBe(422);
  expect(errorOf(res).code).toBe("validation_error");
  return (errorOf(res).details ?? []).map((d) => [d.param, d.message]);
}

const NOT_ALLOWED = "is not allowed on an override plan: it pays by override_levels only";

describe("creating an override plan", () => {
  it("201 with kind override, its levels by depth and none of a standard plan's rating terms; GET says the same", async () => {
    const name = unique("Overrides");
    const res = await api.post("/comp-plans", {
      name,
      kind: "override",
      period: "month",
      currency: "EUR",
      // Given out of order: answered by depth.
      override_levels: [
        { depth: 3, rate: 0.005 },
        { depth: 1, rate: 0.03 },
        { depth: 2, rate: 0.0125 },
      ],
      effective_from: "2026-02-01",
      effective_to: "2026-12-31",
      clawback: { window_days: 90, percent: 50, proration: "none" },
    });
    expect(res.statusCode, res.body).toBe(201);
    const plan = res.json() as CompPlanWritten;
    expect(plan).toEqual({
      id: expect.stringMatching(/^plan_/),
      name,
      description: null,
      status: "active",
      kind: "override",
      currency: "EUR",
      period: "month",
      quota: null,
      base_rate: null,
      tiers: [],
      deal_type_multipliers: {},
      min_deal_amount: null,
      cap_per_period: null,
      override_levels: [
        { depth: 1, rate: 0.03 },
        { depth: 2, rate: 0.0125 },
        { depth: 3, rate: 0.005 },
      ],
      effective_from: "2026-02-01",
      effective_to: "2026-12-31",
      clawback: { window_days: 90, percent: 50, proration: "none" },
      fx_max_age_days: 7,
      version: 1,
      created_at: plan.created_at,
      updated_at: plan.created_at,
      recalculation_job_id: null,
    });
    expect(new URL(String(res.headers.location)).pathname).toBe(`/api/v1/comp-plans/${plan.id}`);
    const { recalculation_job_id: _, ...stored } = plan;
    expect(ok<CompPlan>(await api.get(`/comp-plans/${plan.id}`))).toEqual(stored);
  });

  it("a standard plan says kind standard and override_levels null; kind defaults to standard", async () => {
    const plan = await createPlan(api);
    expect([plan.kind, plan.override_levels]).toEqual(["standard", null]);
    const explicit = await createPlan(api, { kind: "standard", override_levels: null });
    expect([explicit.kind, explicit.override_levels]).toEqual(["standard", null]);
  });

  it.each<[string, unknown]>([
    ["quota", 100000],
    ["base_rate", 0.1],
    ["tiers", TIERS],
    ["deal_type_multipliers", { renewal: 0.5 }],
    ["min_deal_amount", 1000],
    ["cap_per_period", 5000],
  ])("%s given on an override plan → 422 naming it", async (field, value) => {
    expect(refused(await api.post("/comp-plans", overrideBody({ [field]: value })))).toEqual([[field, NOT_ALLOWED]]);
  });

  it("every standard term given at once: each named, in one 422", async () => {
    const res = await api.post(
      "/comp-plans",
      overrideBody({
        quota: 100000,
        base_rate: 0.1,
        tiers: TIERS,
        deal_type_multipliers: { renewal: 0.5 },
        min_deal_amount: 1000,
        cap_per_period: 5000,
      }),
    );
    expect(refused(res).map(([param]) => param)).toEqual([
      "quota",
      "base_rate",
      "tiers",
      "deal_type_multipliers",
      "min_deal_amount",
      "cap_per_period",
    ]);
  });

  it.each<[string, unknown, [string, string][]]>([
    ["missing", undefined, [["override_levels", "is required on an override plan: at least one level {depth, rate}"]]],
    ["null", null, [["override_levels", "is required on an override plan: at least one level {depth, rate}"]]],
    ["empty", [], [["override_levels", "is required on an override plan: at least one level {depth, rate}"]]],
    ["depth 0", [{ depth: 0, rate: 0.03 }], [["override_levels[0].depth", "must be at least 1"]]],
    [
      "depth 6",
      [
        { depth: 1, rate: 0.03 },
        { depth: 6, rate: 0.01 },
      ],
      [["override_levels[1].depth", "must be at most 5"]],
    ],
    ["depth 1.5", [{ depth: 1.5, rate: 0.03 }], [["override_levels[0].depth", "must be a whole number, not a number"]]],
    [
      "a depth twice",
      [
        { depth: 2, rate: 0.01 },
        { depth: 1, rate: 0.03 },
        { depth: 2, rate: 0.02 },
      ],
      [["override_levels", "must give each depth once: depth 2 is given more than once"]],
    ],
    ["a negative rate", [{ depth: 1, rate: -0.03 }], [["override_levels[0].rate", "must be at least 0"]]],
    ["a rate above 10", [{ depth: 1, rate: 10.5 }], [["override_levels[0].rate", "must be at most 10"]]],
    [
      "a rate with 7 decimals",
      [{ depth: 1, rate: 0.0300001 }],
      [["override_levels[0].rate", "must have at most 6 decimal places"]],
    ],
    ["a rate as text", [{ depth: 1, rate: "0.03" }], [["override_levels[0].rate", "must be a number"]]],
    [
      "an unknown key",
      [{ depth: 1, rate: 0.03, users: [] }],
      [["override_levels[0].users", "is not a recognized field"]],
    ],
  ])("levels %s → 422", async (_, levels, details) => {
    const body = overrideBody({ override_levels: levels });
    if (levels === undefined) delete (body as Record<string, unknown>).override_levels;
    expect(refused(await api.post("/comp-plans", body))).toEqual(details);
  });

  it("a rate of 0 and all five depths are taken", async () => {
    const levels = [1, 2, 3, 4, 5].map((depth) => ({ depth, rate: depth === 5 ? 0 : 0.01 }));
    expect((await createOverridePlan({ override_levels: levels })).override_levels).toEqual(levels);
  });

  it("override_levels on a standard plan → 422 naming it; an unknown kind → 422", async () => {
    expect(refused(await api.post("/comp-plans", { ...overrideBody(), kind: "standard", base_rate: 0.1 }))).toEqual([
      ["override_levels", 'is not allowed on a standard plan: only a plan of kind "override" pays by levels'],
    ]);
    expect(refused(await api.post("/comp-plans", overrideBody({ kind: "bonus" }))).map(([p]) => p)).toEqual(["kind"]);
  });

  it("a standard plan still needs base_rate or tiers (kind does not lift it)", async () => {
    const res = await api.post("/comp-plans", {
      name: unique("Plan"),
      period: "quarter",
      effective_from: "2026-01-01",
    });
    expect(refused(res)).toEqual([["base_rate", "is required when the plan has no tiers (give base_rate or tiers)"]]);
  });
});

describe("changing an override plan", () => {
  it("kind is immutable: another kind → 422 naming kind, the same kind is taken; nothing changes", async () => {
    const plan = await createOverridePlan();
    const res = await api.patch(`/comp-plans/${plan.id}`, { kind: "standard", base_rate: 0.1, override_levels: null });
    expect(refused(res)).toEqual([
      ["kind", `is immutable: plan ${plan.id} is an override plan; create a standard plan instead`],
    ]);
    const standard = await createPlan(api);
    expect(refused(await api.patch(`/comp-plans/${standard.id}`, { kind: "override" }))[0]![0]).toBe("kind");
    const same = ok<CompPlanWritten>(await api.patch(`/comp-plans/${plan.id}`, { kind: "override" }));
    expect([same.kind, same.version, same.updated_at]).toEqual(["override", 1, plan.updated_at]);
    expect(ok<CompPlan>(await api.get(`/comp-plans/${plan.id}`)).kind).toBe("override");
  });

  it("a standard term PATCHed onto an override plan → 422 naming it; override_levels onto a standard plan → 422", async () => {
    const plan = await createOverridePlan();
    expect(refused(await api.patch(`/comp-plans/${plan.id}`, { quota: 5000, cap_per_period: 100 }))).toEqual([
      ["quota", NOT_ALLOWED],
      ["cap_per_period", NOT_ALLOWED],
    ]);
    expect(refused(await api.patch(`/comp-plans/${plan.id}`, { override_levels: [] }))[0]![0]).toBe("override_levels");
    // Clearing what an override plan never has is no change.
    const cleared = ok<CompPlanWritten>(await api.patch(`/comp-plans/${plan.id}`, { quota: null, tiers: null }));
    expect(cleared.version).toBe(1);
    const standard = await createPlan(api);
    expect(refused(await api.patch(`/comp-plans/${standard.id}`, { override_levels: LEVELS }))[0]![0]).toBe(
      "override_levels",
    );
  });

  it("new levels make a new version of an active plan; the versions keep each one's levels; the order given does not count", async () => {
    const plan = await createOverridePlan({ clawback: { window_days: 30, percent: 100, proration: "none" } });
    const reordered = ok<CompPlanWritten>(
      await api.patch(`/comp-plans/${plan.id}`, { override_levels: [LEVELS[1], { depth: 1, rate: 0.03 }] }),
    );
    expect([reordered.version, reordered.updated_at]).toEqual([1, plan.updated_at]);
    const v2 = ok<CompPlanWritten>(
      await api.patch(`/comp-plans/${plan.id}`, {
        override_levels: [
          { depth: 1, rate: 0.04 },
          { depth: 3, rate: 0.002 },
        ],
      }),
    );
    expect(v2.version).toBe(2);
    expect(v2.override_levels).toEqual([
      { depth: 1, rate: 0.04 },
      { depth: 3, rate: 0.002 },
    ]);
    const v3 = ok<CompPlanWritten>(await api.patch(`/comp-plans/${plan.id}`, { period: "year" }));
    expect(v3.version).toBe(3);

    const versions = ok<Page<PlanVersion>>(await api.get(`/comp-plans/${plan.id}/versions`));
    expect(versions.data.map((v) => [v.version, v.period, v.override_levels])).toEqual([
      [
        3,
        "year",
        [
          { depth: 1, rate: 0.04 },
          { depth: 3, rate: 0.002 },
        ],
      ],
      [
        2,
        "quarter",
        [
          { depth: 1, rate: 0.04 },
          { depth: 3, rate: 0.002 },
        ],
      ],
      [1, "quarter", LEVELS],
    ]);
    expect(versions.data[2]).toEqual({
      plan_id: plan.id,
      version: 1,
      currency: "USD",
      period: "quarter",
      quota: null,
      base_rate: null,
      tiers: [],
      deal_type_multipliers: {},
      min_deal_amount: null,
      cap_per_period: null,
      override_levels: LEVELS,
      effective_from: "2026-01-01",
      effective_to: null,
      clawback: { window_days: 30, percent: 100, proration: "none" },
      fx_max_age_days: 7,
      created_at: plan.created_at,
    });
  });

  it("a draft's levels edit keeps its version; a standard plan's versions say override_levels null", async () => {
    const draft = await createOverridePlan({ status: "draft" });
    const edited = ok<CompPlanWritten>(
      await api.patch(`/comp-plans/${draft.id}`, { override_levels: [{ depth: 1, rate: 0.05 }] }),
    );
    expect(edited.version).toBe(1);
    const versions = ok<Page<PlanVersion>>(await api.get(`/comp-plans/${draft.id}/versions`));
    expect(versions.data.map((v) => v.override_levels)).toEqual([[{ depth: 1, rate: 0.05 }]]);
    const standard = await createPlan(api);
    const theirs = ok<Page<PlanVersion>>(await api.get(`/comp-plans/${standard.id}/versions`));
    expect(theirs.data.map((v) => v.override_levels)).toEqual([null]);
  });

  it("the impact of a levels change answers for an override plan (no line yet: nothing moves)", async () => {
    const plan = await createOverridePlan();
    const manager = await createUser(t, { role: "manager" });
    await assign(api, plan.id, manager.id);
    const res = await api.post(`/comp-plans/${plan.id}/impact`, { override_levels: [{ depth: 1, rate: 0.05 }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      plan_id: plan.id,
      from_version: 1,
      to_version: 2,
      summary: { users: 0, deals: 0, lines: 0, pending_delta: 0, locked_delta: 0 },
      users: [],
      lines: { data: [], meta: { page: 1, per_page: 25, total: 0 } },
    });
    expect(refused(await api.post(`/comp-plans/${plan.id}/impact`, { quota: 1 }))).toEqual([["quota", NOT_ALLOWED]]);
  });
});

describe("GET /comp-plans?kind=", () => {
  it("filters by kind; an unknown kind → 422", async () => {
    const override = await createOverridePlan();
    const standard = await createPlan(api);
    const overrides = ok<Page<CompPlan>>(await api.get("/comp-plans?kind=override&per_page=100"));
    expect(overrides.data.every((p) => p.kind === "override")).toBe(true);
    expect(overrides.data.map((p) => p.id)).toContain(override.id);
    expect(overrides.meta.total).toBe(overrides.data.length);
    const standards = ok<Page<CompPlan>>(await api.get("/comp-plans?kind=standard&per_page=100"));
    expect(standards.data.every((p) => p.kind === "standard")).toBe(true);
    expect(standards.data.map((p) => p.id)).toContain(standard.id);
    const both = ok<Page<CompPlan>>(await api.get("/comp-plans?kind=override&status=draft&per_page=100"));
    expect(both.data.map((p) => p.id)).not.toContain(override.id);
    expect(refused(await api.get("/comp-plans?kind=bonus")).map(([p]) => p)).toEqual(["kind"]);
  });
});

describe("one assignment in force per plan kind on any date", () => {
  it("a manager on a standard and an override plan over the same dates: both 201", async () => {
    const manager = await createUser(t, { role: "manager" });
    const standard = await createPlan(api);
    const override = await createOverridePlan();
    const a = await assign(api, standard.id, manager.id, { effective_from: "2026-01-01" });
    const b = await assign(api, override.id, manager.id, { effective_from: "2026-01-01" });
    expect([a.plan_id, b.plan_id]).toEqual([standard.id, override.id]);
    const theirs = ok<Page<{ id: string }>>(await api.get(`/plan-assignments?user_id=${manager.id}`));
    expect(theirs.data.map((x) => x.id).sort()).toEqual([a.id, b.id].sort());
    // Moving either over the other's dates is no overlap either.
    const moved = await api.patch(`/plan-assignments/${b.id}`, { effective_from: "2025-12-01", effective_to: null });
    expect(moved.statusCode, moved.body).toBe(200);
  });

  it("two override assignments overlapping → 409 naming the one in force; after it ends → 201", async () => {
    const manager = await createUser(t, { role: "manager" });
    const first = await createOverridePlan();
    const second = await createOverridePlan();
    const held = await assign(api, first.id, manager.id, { effective_from: "2026-01-01", effective_to: "2026-06-30" });
    const res = await api.post(`/comp-plans/${second.id}/assignments`, {
      user_id: manager.id,
      effective_from: "2026-06-30",
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(errorOf(res).code).toBe("conflict");
    expect(errorOf(res).message).toBe(
      `User ${manager.id} already has assignment ${held.id} (plan ${first.id}) in force 2026-01-01 to 2026-06-30, which overlaps; a user has at most one assignment per plan kind (override) on any date`,
    );
    const later = await assign(api, second.id, manager.id, { effective_from: "2026-07-01" });
    // Stretching the first over the later one: 409 on PATCH too.
    const stretched = await api.patch(`/plan-assignments/${held.id}`, { effective_to: "2026-07-01" });
    expect([stretched.statusCode, errorOf(stretched).message]).toEqual([
      409,
      `User ${manager.id} already has assignment ${later.id} (plan ${second.id}) in force 2026-07-01 to open-ended, which overlaps; a user has at most one assignment per plan kind (override) on any date`,
    ]);
  });

  it("two standard assignments overlapping are still 409, whatever override assignment the user holds", async () => {
    const manager = await createUser(t, { role: "manager" });
    await assign(api, (await createOverridePlan()).id, manager.id);
    await assign(api, (await createPlan(api)).id, manager.id);
    const res = await api.post(`/comp-plans/${(await createPlan(api)).id}/assignments`, {
      user_id: manager.id,
      effective_from: "2026-03-01",
    });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toContain("at most one assignment per plan kind (standard)");
  });

  it("an override plan's assignment takes no quota_override (the plan has no quota)", async () => {
    const manager = await createUser(t, { role: "manager" });
    const plan = await createOverridePlan();
    const res = await api.post(`/comp-plans/${plan.id}/assignments`, {
      user_id: manager.id,
      effective_from: "2026-01-01",
      quota_override: 5000,
    });
    expect(refused(res)).toEqual([
      ["quota_override", `is not allowed: plan ${plan.id} is an override plan, which has no quota`],
    ]);
  });
});
