import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Deal, DealDetail } from "../../src/deals/index.js";
import type { BulkResult } from "../../src/deals/testing.js";
import type { Page } from "../../src/http/pagination.js";
import { errorOf, unique } from "../factories.js";
import { Api, approveAsOwner, dealBody, eventsOf, getDeal, ok, repOnPlan } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";

/** The CRM sync paths: PUT /deals/by-external-id/{external_id} and POST /deals/bulk. */

let t: TestApp;
let api: Api;
let owner: string;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t, "write");
  owner = (await repOnPlan(new Api(t, "admin"), { tiers: null, quota: null, base_rate: 0.1 })).user.id;
});
afterAll(() => t.close());

const put = (externalId: string, body: unknown) =>
  api.put(`/deals/by-external-id/${encodeURIComponent(externalId)}`, body);
const body = (overrides: Record<string, unknown> = {}) => {
  const { opportunity_name: _, ...rest } = dealBody(owner, overrides);
  return { opportunity_name: "Acme", ...rest };
};

describe("PUT /deals/by-external-id/{external_id}", () => {
  it("201 creates, 200 updates, 200 no-op when equal (no event), whole replacement", async () => {
    const crm = unique("crm");
    const created = ok<DealDetail>(await put(crm, body({ deal_type: "expansion" })), 201);
    expect(created).toMatchObject({ external_id: crm, deal_type: "expansion", total_commission: 1000 });
    expect(created.commissions).toHaveLength(1);
    const same = ok<DealDetail>(await put(crm, body({ deal_type: "expansion", external_id: crm })), 200);
    expect(same.updated_at).toBe(created.updated_at);
    expect((await eventsOf(t, "deal.updated")).filter((e) => e.object.id === created.id)).toHaveLength(0);
    const updated = ok(await put(crm, body({ arr_amount: 20000 })), 200);
    expect(updated).toMatchObject({
      id: created.id,
      deal_type: "new_business",
      arr_amount: 20000,
      total_commission: 2000,
    });
    expect((await eventsOf(t, "deal.updated")).filter((e) => e.object.id === created.id)).toHaveLength(1);
  });

  it("equal is a no-op even on a locked deal; a change to it is 409 invalid_transition", async () => {
    const crm = unique("crm");
    const created = ok<DealDetail>(await put(crm, body()), 201);
    await approveAsOwner(t, created.id);
    const same = ok<DealDetail>(await put(crm, body()), 200);
    expect(same.status).toBe("approved");
    const changed = await put(crm, body({ arr_amount: 1 }));
    expect(changed.statusCode).toBe(409);
    expect(errorOf(changed).code).toBe("invalid_transition");
    expect(errorOf(changed).message).toContain("is approved");
    expect((await getDeal(api, created.id)).arr_amount).toBe(10000);
  });

  it("concurrent upserts of a new CRM id create it once", async () => {
    const crm = unique("crm");
    const results = await Promise.all([put(crm, body()), put(crm, body()), put(crm, body({ arr_amount: 5 }))]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 201]);
    expect(new Set(results.map((r) => r.json().id)).size).toBe(1);
  });

  it("an external_id in the body must match the path; invalid bodies are 422", async () => {
    const res = await put(unique("crm"), body({ external_id: "other" }));
    expect(res.statusCode).toBe(422);
    expect(errorOf(res).details?.[0]?.param).toBe("external_id");
    expect(errorOf(await put(unique("crm"), body({ arr_amount: -1 }))).details?.[0]?.param).toBe("arr_amount");
  });
});

describe("POST /deals/bulk", () => {
  it("creates, updates and leaves unchanged in one call, in input order, with counts", async () => {
    const [x, y, z] = [unique("crm"), unique("crm"), unique("crm")];
    ok(await put(y, body()), 201);
    ok(await put(z, body({ arr_amount: 500 })), 201);
    const res = ok<BulkResult>(
      await api.post("/deals/bulk", {
        deals: [
          { ...body({ arr_amount: 3000 }), external_id: x },
          { ...body(), external_id: y },
          { ...body({ arr_amount: 700 }), external_id: z },
        ],
      }),
    );
    expect(res.meta).toEqual({ created: 1, updated: 1, unchanged: 1, recalculation_job_id: null });
    expect(res.data.map((d) => [d.external_id, d.arr_amount, d.total_commission])).toEqual([
      [x, 3000, 300],
      [y, 10000, 1000],
      [z, 700, 70],
    ]);
    expect(res.data[0]).not.toHaveProperty("commissions");
  });

  it("all or nothing: one bad item is a 422 naming it by index, and nothing is saved", async () => {
    const [x, y] = [unique("crm"), unique("crm")];
    const res = await api.post("/deals/bulk", {
      deals: [
        { ...body(), external_id: x },
        { ...body({ arr_amount: 1.001 }), external_id: y },
        { ...body({ owner_id: "usr_ghost" }), external_id: unique("crm") },
      ],
    });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res).details?.map((d) => d.param)).toEqual(["deals[1].arr_amount"]);
    const later = await api.post("/deals/bulk", {
      deals: [
        { ...body(), external_id: x },
        { ...body({ owner_id: "usr_ghost" }), external_id: y },
        { ...body(), external_id: x },
      ],
    });
    expect(errorOf(later).details).toEqual([
      { param: "deals[2].external_id", message: `repeats deals[0].external_id (${x})` },
    ]);
    const ghosts = await api.post("/deals/bulk", {
      deals: [
        { ...body(), external_id: x },
        { ...body({ owner_id: "usr_ghost" }), external_id: y },
      ],
    });
    expect(errorOf(ghosts).details).toEqual([{ param: "deals[1].owner_id", message: "user usr_ghost does not exist" }]);
    expect(ok<Page<Deal>>(await api.get(`/deals?external_id=${x}`)).meta.total).toBe(0);
  });

  it("a change to a locked deal refuses the whole batch (409 naming the item)", async () => {
    const [x, y] = [unique("crm"), unique("crm")];
    const locked = ok<DealDetail>(await put(x, body()), 201);
    await approveAsOwner(t, locked.id);
    const res = await api.post("/deals/bulk", {
      deals: [
        { ...body(), external_id: y },
        { ...body({ arr_amount: 5 }), external_id: x },
      ],
    });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe("invalid_transition");
    expect(errorOf(res).details?.[0]?.param).toBe("deals[1]");
    expect(ok<Page<Deal>>(await api.get(`/deals?external_id=${y}`)).meta.total).toBe(0);
  });

  it("takes at most 1,000 deals and at least one", async () => {
    const many = Array.from({ length: 1001 }, (_, i) => ({ ...body(), external_id: `e${i}` }));
    const res = await api.post("/deals/bulk", { deals: many });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res).details?.[0]).toEqual({ param: "deals", message: "must hold at most 1000 deals" });
    expect(errorOf(await api.post("/deals/bulk", { deals: [] })).details?.[0]?.param).toBe("deals");
  });

  it("1,000 deals in one call", async () => {
    const prefix = unique("bulk");
    const deals = Array.from({ length: 1000 }, (_, i) => ({
      ...body({ arr_amount: 100 + i }),
      external_id: `${prefix}-${i}`,
    }));
    const res = ok<BulkResult>(await api.post("/deals/bulk", { deals }));
    expect(res.meta.created).toBe(1000);
    expect(res.data[999]!.total_commission).toBe(109.9);
  });
});
