import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Deal, DealDetail } from "../../src/deals/index.js";
import type { Page } from "../../src/http/pagination.js";
import { createUser, errorOf, unique } from "../factories.js";
import {
  Api,
  approveAsOwner,
  createDeal,
  dealBody,
  getDeal,
  ok,
  rejectAsOwner,
  repOnPlan,
} from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";

let t: TestApp;
let api: Api;
let clock: TestClock;
beforeAll(async () => {
  clock = new TestClock();
  t = await createTestApp({ clock });
  api = new Api(t, "write");
});
afterAll(() => t.close());

const params = (res: LightMyRequestResponse) => (errorOf(res).details ?? []).map((d) => d.param);

describe("POST /deals", () => {
  it("applies the defaults and returns the deal with its lines", async () => {
    const user = await createUser(t);
    const deal = ok<DealDetail>(await api.post("/deals", dealBody(user.id, { arr_amount: 1234.5 })), 201);
    expect(deal).toMatchObject({
      external_id: null,
      arr_amount: 1234.5,
      currency: "USD",
      deal_type: "new_business",
      splits: [{ user_id: user.id, percent: 100 }],
      status: "pending",
      total_commission: 0,
      rejection_reason: null,
      approved_at: null,
      paid_at: null,
      commissions: [],
      recalculation_job_id: null,
    });
    expect(deal.id).toMatch(/^deal_/);
    expect(deal.created_at).toBe("2026-11-22T10:00:00.000Z");
  });

  it.each([
    [{ arr_amount: 10.005 }, "arr_amount", "must have at most 2 decimal places for USD"],
    [{ arr_amount: 0.1 + 0.2 }, "arr_amount", "must have at most 3 decimal places"],
    [{ arr_amount: -1 }, "arr_amount", "must be at least 0"],
    [{ arr_amount: "100" }, "arr_amount", "must be a number"],
    [{ currency: "usd" }, "currency", "must be an ISO 4217 code of 3 uppercase letters, such as USD"],
    [{ currency: "XYZ" }, "currency", "XYZ is not an active ISO 4217 currency code"],
    [{ deal_type: "upsell" }, "deal_type", "must be one of: new_business, expansion, renewal, other"],
    [{ close_date: "2026-02-30" }, "close_date", "must be a real calendar date"],
    [{ splits: [] }, "splits", "must list at least one user"],
    [{ splits: [{ user_id: "usr_x", percent: 0 }] }, "splits[0].percent", "must be greater than 0"],
    [{ splits: [{ user_id: "usr_x", percent: 99.00001 }] }, "splits[0].percent", "must have at most 4 decimal places"],
    [{ status: "approved" }, "status", "is read-only and cannot be set"],
    [{ total_commission: 5 }, "total_commission", "is read-only and cannot be set"],
    [{ colour: "red" }, "colour", "is not a recognized field"],
  ])("%j → 422 naming %s", async (override, param, message) => {
    const res = await api.post("/deals", dealBody("usr_x", override));
    expect(res.statusCode, res.body).toBe(422);
    const detail = errorOf(res).details!.find((d) => d.param === param);
    expect(detail, res.body).toBeDefined();
    expect(detail!.message).toBe(message);
  });

  it("percents must sum to exactly 100 and name each user once", async () => {
    const [a, b] = [await createUser(t), await createUser(t)];
    const short = await api.post(
      "/deals",
      dealBody(a.id, {
        splits: [
          { user_id: a.id, percent: 33.33 },
          { user_id: b.id, percent: 66.66 },
        ],
      }),
    );
    expect(errorOf(short).details).toEqual([
      { param: "splits", message: "percents must sum to exactly 100 (they sum to 99.99)" },
    ]);
    const twice = await api.post(
      "/deals",
      dealBody(a.id, {
        splits: [
          { user_id: a.id, percent: 50 },
          { user_id: a.id, percent: 50 },
        ],
      }),
    );
    expect(errorOf(twice).details).toEqual([{ param: "splits[1].user_id", message: "repeats splits[0].user_id" }]);
  });

  it("owners and split users must exist (422 naming each)", async () => {
    const a = await createUser(t);
    const res = await api.post(
      "/deals",
      dealBody("usr_nobody", {
        splits: [
          { user_id: a.id, percent: 50 },
          { user_id: "usr_ghost", percent: 50 },
        ],
      }),
    );
    expect(res.statusCode).toBe(422);
    expect(errorOf(res).details).toEqual([
      { param: "owner_id", message: "user usr_nobody does not exist" },
      { param: "splits[1].user_id", message: "user usr_ghost does not exist" },
    ]);
  });

  it("external_id is unique (409 conflict)", async () => {
    const user = await createUser(t);
    const external_id = unique("crm");
    await createDeal(api, user.id, { external_id });
    const res = await api.post("/deals", dealBody(user.id, { external_id }));
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe("conflict");
    expect(errorOf(res).message).toContain(external_id);
  });
});

describe("PATCH and DELETE /deals/{id}", () => {
  it("merges; a no-op changes nothing", async () => {
    const user = await createUser(t);
    const deal = await createDeal(api, user.id, { external_id: unique("crm") });
    clock.advance(1000);
    const same = ok<DealDetail>(await api.patch(`/deals/${deal.id}`, { arr_amount: deal.arr_amount }));
    expect(same.updated_at).toBe(deal.updated_at);
    const patched = ok<DealDetail>(
      await api.patch(`/deals/${deal.id}`, { opportunity_name: "Bigger", external_id: null }),
    );
    expect(patched).toMatchObject({ opportunity_name: "Bigger", external_id: null, arr_amount: deal.arr_amount });
    expect(patched.updated_at).not.toBe(deal.updated_at);
  });

  it.each(["approved", "disputed", "paid"] as const)(
    "a %s deal cannot be edited or deleted (409 naming the status)",
    async (status) => {
      const { user } = await repOnPlan(new Api(t, "admin"));
      const deal = await createDeal(api, user.id);
      await approveAsOwner(t, deal.id, status);
      const edit = await api.patch(`/deals/${deal.id}`, { arr_amount: 1 });
      expect(edit.statusCode).toBe(409);
      expect(errorOf(edit)).toMatchObject({
        code: "invalid_transition",
        message: `Deal ${deal.id} is ${status}; only pending and rejected deals can be edited`,
      });
      const del = await api.del(`/deals/${deal.id}`);
      expect([del.statusCode, errorOf(del).code]).toEqual([409, "invalid_transition"]);
      expect(errorOf(del).message).toContain(`is ${status}`);
      expect((await getDeal(api, deal.id)).total_commission).toBe(1000);
    },
  );

  it("a rejected deal can be deleted; an unknown one is 404; validation comes before 404", async () => {
    const user = await createUser(t);
    const deal = await createDeal(api, user.id);
    await rejectAsOwner(t, deal.id);
    expect((await api.del(`/deals/${deal.id}`)).statusCode).toBe(204);
    expect((await api.del(`/deals/${deal.id}`)).statusCode).toBe(404);
    const bad = await api.patch(`/deals/${deal.id}`, { arr_amount: -5 });
    expect(bad.statusCode).toBe(422);
  });

  it("an empty PATCH on a rejected deal resubmits it", async () => {
    const user = await createUser(t);
    const deal = await createDeal(api, user.id);
    await rejectAsOwner(t, deal.id, "wrong owner");
    expect((await getDeal(api, deal.id)).rejection_reason).toBe("wrong owner");
    const again = ok<DealDetail>(await api.patch(`/deals/${deal.id}`, {}));
    expect([again.status, again.rejection_reason]).toEqual(["pending", null]);
  });
});

describe("GET /deals", () => {
  let owner: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    owner = (await repOnPlan(new Api(t, "admin"), { tiers: null, quota: null, base_rate: 0.1 })).user.id;
    const rows = [
      ["a", "Acme renewal", 300, "2026-07-03"],
      ["b", "Globex 100% Expansion", 100, "2026-07-01"],
      ["c", "acme NEW", 200, "2026-07-02"],
      ["d", "Initech", 200, "2026-07-05"],
    ] as const;
    for (const [key, name, arr, close] of rows) {
      clock.advance(10);
      ids[key] = (await createDeal(api, owner, { opportunity_name: name, arr_amount: arr, close_date: close })).id;
    }
    await rejectAsOwner(t, ids.d!);
  });
  const list = async (query: string) => {
    const body = ok<Page<Deal>>(await api.get(`/deals?owner_id=${owner}&${query}`));
    const back = Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));
    return body.data.map((d) => back[d.id]).join("");
  };

  it("defaults to newest first; sorts ascending and descending with ties on id in the same direction", async () => {
    expect(await list("")).toBe("dcba");
    expect(await list("sort=close_date")).toBe("bcad");
    expect(await list("sort=-close_date")).toBe("dacb");
    expect(await list("sort=arr_amount")).toBe(ids.c! < ids.d! ? "bcda" : "bdca");
    expect(await list("sort=-arr_amount")).toBe(ids.c! < ids.d! ? "adcb" : "acdb");
    expect(await list("sort=total_commission")).toBe("dbca");
    expect(await list("sort=created_at")).toBe("abcd");
  });

  it("filters by status (one or several), dates, name, external_id and updated_since", async () => {
    expect(await list("status=rejected")).toBe("d");
    expect(await list("status=pending,rejected")).toBe("dcba");
    expect(await list("close_date_from=2026-07-02&close_date_to=2026-07-03")).toBe("ca");
    expect(await list("q=acme")).toBe("ca");
    expect(await list("q=100%25")).toBe("b");
    const c = await getDeal(api, ids.c!);
    expect(await list(`updated_since=${encodeURIComponent(c.updated_at)}`)).toBe(
      (await list("")).slice(0, (await list("")).indexOf("c") + 1),
    );
    const res = await api.get("/deals?status=open");
    expect(res.statusCode).toBe(422);
    expect(params(res)).toEqual(["status"]);
    expect(params(await api.get("/deals?sort=name"))).toEqual(["sort"]);
  });

  it("list items carry no lines; pagination and Link headers work", async () => {
    const res = await api.get(`/deals?owner_id=${owner}&per_page=2&page=2`);
    const body = ok<Page<Deal>>(res);
    expect(body.meta).toEqual({ page: 2, per_page: 2, total: 4 });
    expect(body.data[0]).not.toHaveProperty("commissions");
    expect(res.headers.link).toContain('rel="prev"');
  });
});
