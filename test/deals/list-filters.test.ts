import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Deal } from "../../src/deals/index.js";
import type { Page } from "../../src/http/pagination.js";
import { errorOf } from "../factories.js";
import { Api, createDeal, ok, rejectAsOwner, repOnPlan } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { signedInAs } from "../sessions.js";

// GET /deals' approval-queue filters (issue #18): deal_type, arr_amount_min/max, plan_id.

let t: TestApp;
let api: Api;
const ids: Record<string, string> = {};
let planP: string;
let planQ: string;
let repA: string;

beforeAll(async () => {
  const clock = new TestClock();
  t = await createTestApp({ clock });
  api = new Api(t, "admin");
  const a = await repOnPlan(api);
  const b = await repOnPlan(api);
  [planP, planQ, repA] = [a.plan.id, b.plan.id, a.user.id];
  const rows = [
    ["a", a.user.id, "new_business", 1000, null],
    ["b", a.user.id, "expansion", 2500.5, null],
    ["c", a.user.id, "renewal", 2500.49, null],
    ["d", b.user.id, "expansion", 5000, null],
    ["e", a.user.id, "other", 7000, null],
    // Credits both reps, so it has a plan line of each plan.
    [
      "f",
      a.user.id,
      "expansion",
      3000,
      [
        { user_id: a.user.id, percent: 50 },
        { user_id: b.user.id, percent: 50 },
      ],
    ],
  ] as const;
  for (const [key, owner, deal_type, arr_amount, splits] of rows) {
    clock.advance(10);
    const body = { deal_type, arr_amount, ...(splits ? { splits } : {}) };
    ids[key] = (await createDeal(api, owner, body)).id;
  }
  // A rejected deal's lines are void: it no longer counts as a deal of plan P.
  await rejectAsOwner(t, ids.e!);
});
afterAll(() => t.close());

const back = () => Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));

/** The keys of the listed deals in created order (sort=created_at), and meta.total. */
async function list(query: string, headers?: Record<string, string>) {
  const res = headers
    ? await t.app.inject({ method: "GET", url: `/api/v1/deals?sort=created_at&${query}`, headers })
    : await api.get(`/deals?sort=created_at&${query}`);
  const body = ok<Page<Deal>>(res);
  const names = back();
  return `${body.data.map((d) => names[d.id] ?? "?").join("")}/${body.meta.total}`;
}

const mine = () => `owner_id=${repA}`;

describe("GET /deals filters for the approval queue", () => {
  it("deal_type takes one type or several comma-separated", async () => {
    expect(await list(`${mine()}&deal_type=expansion`)).toBe("bf/2");
    expect(await list(`${mine()}&deal_type=expansion,renewal`)).toBe("bcf/3");
    expect(await list(`${mine()}&deal_type=new_business,expansion,renewal,other`)).toBe("abcef/5");
  });

  it("#26 …or the parameter repeated, as generated clients send an array (the document's array of the enum)", async () => {
    expect(await list(`${mine()}&deal_type=expansion&deal_type=renewal`)).toBe("bcf/3");
    expect(await list(`${mine()}&deal_type=expansion&deal_type=renewal,other`)).toBe("bcef/4");
    const bad = await api.get(`/deals?${mine()}&deal_type=expansion&deal_type=upsell`);
    expect([bad.statusCode, bad.json().error.details]).toEqual([
      422,
      [
        {
          param: "deal_type",
          message: "must be a deal type (new_business, expansion, renewal, other), one or comma-separated",
        },
      ],
    ]);
  });

  it("arr_amount_min and arr_amount_max bound the amount inclusively, to the cent", async () => {
    expect(await list(`${mine()}&arr_amount_min=2500.5`)).toBe("bef/3");
    expect(await list(`${mine()}&arr_amount_max=2500.49`)).toBe("ac/2");
    expect(await list(`${mine()}&arr_amount_min=2500.49&arr_amount_max=2500.50`)).toBe("bc/2");
    expect(await list(`${mine()}&arr_amount_min=3000&arr_amount_max=3000`)).toBe("f/1");
    expect(await list("arr_amount_min=0&arr_amount_max=999999999999.99&deal_type=expansion")).toBe("bdf/3");
  });

  it("plan_id keeps deals with a non-void plan line of that plan, whoever owns them", async () => {
    expect(await list(`plan_id=${planP}`)).toBe("abcf/4");
    expect(await list(`plan_id=${planQ}`)).toBe("df/2");
    expect(await list(`plan_id=${planQ}&status=rejected`)).toBe("/0");
    expect(await list("plan_id=plan_unknown")).toBe("/0");
  });

  it("combines with the other filters (AND) and pages with an exact total", async () => {
    expect(await list(`plan_id=${planP}&status=pending&deal_type=expansion,renewal&arr_amount_max=2500.5`)).toBe(
      "bc/2",
    );
    const res = await api.get(`/deals?sort=created_at&plan_id=${planP}&per_page=3&page=2`);
    const body = ok<Page<Deal>>(res);
    expect(body.data.map((d) => back()[d.id])).toEqual(["f"]);
    expect(body.meta).toEqual({ page: 2, per_page: 3, total: 4 });
  });

  it("a person filtering by plan still sees only the deals they see", async () => {
    const b = await repOnPlan(api);
    const session = await signedInAs(t, b.user);
    ids.g = (await createDeal(api, session.user.id, { deal_type: "renewal", arr_amount: 4200 })).id;
    expect(await list(`plan_id=${b.plan.id}`, session.headers())).toBe("g/1");
    expect(await list(`plan_id=${planP}`, session.headers())).toBe("/0");
    expect(await list(`plan_id=${planP}`)).toBe("abcf/4");
  });

  it.each([
    [
      "deal_type=upsell",
      "deal_type",
      "must be a deal type (new_business, expansion, renewal, other), one or comma-separated",
    ],
    [
      "deal_type=expansion,",
      "deal_type",
      "must be a deal type (new_business, expansion, renewal, other), one or comma-separated",
    ],
    [
      "arr_amount_min=-1",
      "arr_amount_min",
      "must be an amount ≥ 0 in digits with at most 3 decimals, such as 1500 or 1500.5",
    ],
    [
      "arr_amount_min=1e3",
      "arr_amount_min",
      "must be an amount ≥ 0 in digits with at most 3 decimals, such as 1500 or 1500.5",
    ],
    [
      "arr_amount_max=10.0005",
      "arr_amount_max",
      "must be an amount ≥ 0 in digits with at most 3 decimals, such as 1500 or 1500.5",
    ],
    [
      "arr_amount_max=%201",
      "arr_amount_max",
      "must be an amount ≥ 0 in digits with at most 3 decimals, such as 1500 or 1500.5",
    ],
    [
      "arr_amount_min=",
      "arr_amount_min",
      "must be an amount ≥ 0 in digits with at most 3 decimals, such as 1500 or 1500.5",
    ],
    ["arr_amount_min=10.5&arr_amount_max=10.49", "arr_amount_max", "must be at least arr_amount_min (10.5)"],
    [`plan_id=${"p".repeat(256)}`, "plan_id", "must be at most 255 characters"],
    ["plan_id=", "plan_id", "must be at least 1 characters"],
  ])("%s → 422 naming %s", async (query, param, message) => {
    const res = await api.get(`/deals?${query}`);
    expect(res.statusCode, res.body).toBe(422);
    expect(errorOf(res).code).toBe("validation_error");
    expect(errorOf(res).details).toEqual([{ param, message }]);
  });
});
