import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlanImpact } from "../../src/comp-plans/index.js";
import type { Role, Scope } from "../../src/context.js";
import type { User } from "../../src/users/index.js";
import { createUser, errorOf, unknownId } from "../factories.js";
import { Api, assign, createDeal, createPlan, ok, repOnPlan } from "../factories-commissions.js";
import { bearer, createTestApp, type TestApp } from "../harness.js";
import { signedInAs } from "../sessions.js";
import { rowCounts } from "./helpers.js";

/* API.md §12 and §11: who may preview a plan change, what an invalid body or plan answers, and the pages. */

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(() => t.close());

const impactUrl = (id: string, query = "") => `/api/v1/comp-plans/${id}/impact${query}`;

function post(url: string, headers: Record<string, string>, body: unknown) {
  return t.app.inject({ method: "POST", url, headers, payload: body as object });
}

/** An error body as the contract reads it, less its request id (each response has its own). */
function withoutRequestId(res: Parameters<typeof errorOf>[0]) {
  const { request_id: _, ...rest } = errorOf(res);
  return rest;
}

async function asKey(scope: Scope) {
  return bearer((await t.key(scope)).key);
}

async function asPerson(role: Role) {
  return (await signedInAs(t, { role })).headers("POST");
}

describe("POST /comp-plans/{id}/impact: access (admin, or finance)", () => {
  it("read and write keys, and the plan's own rep and their manager, are refused 403; admin keys, admins and finance get 200", async () => {
    const manager = await createUser(t, { role: "manager" });
    const rep = await createUser(t, { role: "rep", manager_id: manager.id });
    const plan = await createPlan(api, { tiers: null, quota: null, base_rate: 0.1 });
    await assign(api, plan.id, rep.id);
    await createDeal(api, rep.id, { arr_amount: 10000 });
    const body = { base_rate: 0.2 };
    const session = async (user: User) => (await signedInAs(t, user)).headers("POST");
    const refused = [await asKey("read"), await asKey("write"), await session(rep), await session(manager)];
    const allowed = [await asKey("admin"), await asPerson("admin"), await asPerson("finance")];
    const stranger = await asPerson("rep");
    const counts = await rowCounts(t);
    for (const headers of refused) {
      const res = await post(impactUrl(plan.id), headers, body);
      expect([res.statusCode, errorOf(res).code], res.body).toEqual([403, "forbidden"]);
    }
    // A plan the person does not see answers as an unknown one (§11: its existence is never revealed).
    const hidden = await post(impactUrl(plan.id), stranger, body);
    expect([hidden.statusCode, errorOf(hidden).code]).toEqual([404, "not_found"]);
    const answers: PlanImpact[] = [];
    for (const headers of allowed) answers.push(ok<PlanImpact>(await post(impactUrl(plan.id), headers, body)));
    expect(answers[0]!.summary).toEqual({ users: 1, deals: 1, lines: 1, pending_delta: 1000, locked_delta: 0 });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(await rowCounts(t)).toEqual(counts);
  });

  it("a signed-in finance person may preview but not apply the change", async () => {
    const { plan } = await repOnPlan(api);
    const finance = await signedInAs(t, { role: "finance" });
    ok(await post(impactUrl(plan.id), finance.headers("POST"), { quota: 50000 }));
    const patch = await t.app.inject({
      method: "PATCH",
      url: `/api/v1/comp-plans/${plan.id}`,
      headers: finance.headers("PATCH"),
      payload: { quota: 50000 },
    });
    expect([patch.statusCode, errorOf(patch).code]).toEqual([403, "forbidden"]);
  });
});

describe("POST /comp-plans/{id}/impact: errors", () => {
  it("404 for an unknown plan", async () => {
    const id = unknownId("plan");
    const res = await api.post(`/comp-plans/${id}/impact`, { base_rate: 0.2 });
    expect([res.statusCode, errorOf(res).code]).toEqual([404, "not_found"]);
    const patch = await api.patch(`/comp-plans/${id}`, { base_rate: 0.2 });
    expect(withoutRequestId(res)).toEqual(withoutRequestId(patch));
    // Validation comes before the record (§2's order): an invalid body on an unknown plan is 422.
    const invalid = await api.post(`/comp-plans/${id}/impact`, { bonus: 1 });
    expect([invalid.statusCode, errorOf(invalid).code]).toEqual([422, "validation_error"]);
  });

  it.each([
    ["tiers not starting at 0", { tiers: [{ from_attainment: 0.5, rate: 0.1 }] }],
    [
      "tiers not ascending",
      {
        tiers: [
          { from_attainment: 0, rate: 0.1 },
          { from_attainment: 0, rate: 0.2 },
        ],
      },
    ],
    ["an unknown field", { base_rate: 0.2, bonus: 1 }],
    ["a negative rate", { base_rate: -0.1 }],
    ["effective_to before effective_from", { effective_to: "2025-12-31" }],
    ["tiers removed with no base_rate", { tiers: null }],
    ["an unknown deal type", { deal_type_multipliers: { upsell: 2 } }],
    ["a non-boolean retroactive", { retroactive: "yes" }],
  ])("422 for %s, with the PATCH's own error", async (_, body) => {
    const { plan } = await repOnPlan(api);
    const res = await api.post(`/comp-plans/${plan.id}/impact`, body);
    expect([res.statusCode, errorOf(res).code], res.body).toEqual([422, "validation_error"]);
    const patch = await api.patch(`/comp-plans/${plan.id}`, body);
    expect(patch.statusCode).toBe(422);
    expect(withoutRequestId(res)).toEqual(withoutRequestId(patch));
  });

  it("422 for a page query it does not know", async () => {
    const { plan } = await repOnPlan(api);
    for (const query of ["?per_page=0", "?page=0", "?per_page=101", "?sort=delta"]) {
      const res = await api.post(`/comp-plans/${plan.id}/impact${query}`, { quota: 50000 });
      expect([query, res.statusCode, errorOf(res).code]).toEqual([query, 422, "validation_error"]);
    }
  });
});

describe("POST /comp-plans/{id}/impact: lines, largest |delta| first, in pages", () => {
  it("five changed lines of mixed sign, walked two at a time", async () => {
    const { user, plan } = await repOnPlan(api, { tiers: null, quota: null, base_rate: 0.1 });
    const deals: Record<number, string> = {};
    for (const [arr, type] of [
      [5000, "renewal"],
      [4000, "expansion"],
      [3000, "renewal"],
      [2000, "expansion"],
      [1000, "renewal"],
    ] as const) {
      deals[arr] = (await createDeal(api, user.id, { arr_amount: arr, deal_type: type })).id;
    }
    const body = { deal_type_multipliers: { renewal: 2, expansion: 0 } };
    const all = ok<PlanImpact>(await api.post(`/comp-plans/${plan.id}/impact`, body));
    expect(all.lines.meta).toEqual({ page: 1, per_page: 25, total: 5 });
    expect(all.lines.data.map((l) => [l.deal_id, l.delta])).toEqual([
      [deals[5000], 500],
      [deals[4000], -400],
      [deals[3000], 300],
      [deals[2000], -200],
      [deals[1000], 100],
    ]);
    expect(all.summary).toEqual({ users: 1, deals: 5, lines: 5, pending_delta: 300, locked_delta: 0 });

    const pages: PlanImpact[] = [];
    for (const page of [1, 2, 3, 4]) {
      pages.push(ok<PlanImpact>(await api.post(`/comp-plans/${plan.id}/impact?per_page=2&page=${page}`, body)));
    }
    expect(pages.map((p) => p.lines.meta)).toEqual([1, 2, 3, 4].map((page) => ({ page, per_page: 2, total: 5 })));
    expect(pages.map((p) => p.lines.data.length)).toEqual([2, 2, 1, 0]);
    expect(pages.flatMap((p) => p.lines.data)).toEqual(all.lines.data);
    for (const p of pages) expect({ ...p, lines: null }).toEqual({ ...all, lines: null });
  });
});
