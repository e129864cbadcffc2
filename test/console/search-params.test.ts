import type { AnyRoute } from "@tanstack/react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The console keeps a list's filters, sort, page and open drawer in the URL, each route validating its
// search parameters with a zod schema (pages/<page>/schemas.ts). These tests walk every route of the
// router: a bare link opens the page with its defaults, a bad or old link too (a value that does not
// parse is dropped, never an error page), and what a page writes comes back the same from the URL.

const web = (path: string): Promise<any> => import(`../../web/src/${path}`);

// The API client takes its base URL from the page's location when first imported (in this worker).
beforeAll(() => {
  vi.stubGlobal("location", new URL("http://console.test/"));
});

afterAll(() => {
  vi.unstubAllGlobals();
});

interface StandardSchema {
  "~standard": { validate: (value: unknown) => { value?: Record<string, unknown>; issues?: unknown[] } };
}

async function routesWithSearch(): Promise<{ path: string; schema: StandardSchema; router: any }[]> {
  const { makeRouter } = await web("routes");
  const { QueryClient } = await import("@tanstack/react-query");
  const router = makeRouter(new QueryClient());
  const all = Object.values(router.routesById) as AnyRoute[];
  return all
    .filter((route) => route.options.validateSearch)
    .map((route) => ({ path: route.fullPath, schema: route.options.validateSearch as StandardSchema, router }));
}

const validate = (schema: StandardSchema, search: Record<string, unknown>) => {
  const result = schema["~standard"].validate(search);
  expect(result.issues).toBeUndefined();
  return Object.fromEntries(Object.entries(result.value ?? {}).filter(([, v]) => v !== undefined));
};

/** What a page may write into each route's URL (every parameter of its schema, valid). */
const WRITTEN: Record<string, Record<string, unknown>> = {
  "/sign-in": { return_to: "/statements/2026-Q3?user=usr_1", reason: "expired" },
  "/statements": { user: "usr_01ABC" },
  "/statements/$period": { user: "usr_01ABC" },
  "/deals": {
    q: "Acme",
    status: ["approved", "paid"],
    period: "2026-Q3",
    owner_id: "usr_1",
    sort: "-total_commission",
    page: 2,
    per_page: 50,
  },
  "/deals/$dealId": { history: 2 },
  "/disputes": { page: 3 },
  "/team": { on: "2026-09-30", sort: "total", order: "descending" },
  "/approvals": {
    owner_id: "usr_1",
    period: "2026-Q3",
    arr_amount_min: "2000",
    arr_amount_max: "5000.5",
    deal_type: ["expansion", "renewal"],
    plan_id: "plan_1",
    sort: "-arr_amount",
    page: 2,
    per_page: 100,
    deal: "deal_1",
  },
  "/dispute-queue": { status: "resolved", page: 2 },
  "/payouts": { runs: 2, groups: 2, owner: "usr_1", page: 3 },
  "/payouts/runs/$runId": { person: "usr_1", page: 2 },
  "/plans": { status: "draft", page: 2 },
  "/spiffs": { active: false, page: 2 },
  "/people": { role: "manager", active: true, email: "a@b.example", page: 2 },
  "/api-keys": { page: 2 },
  "/exchange-rates": { page: 2 },
  "/accounting": { from: "2026-01", to: "2026-06", month: "2026-03" },
  "/draws": { user: "usr_1", currency: "EUR", status: "ended", page: 2, draw: "draw_1" },
  "/webhooks": { page: 2 },
  "/webhooks/$subscriptionId": { deliveries: 2 },
  "/audit": { resource: "user", resource_id: "usr_1", actor: "owner-cli", since: "2026-11-26T08:30:00.000Z", page: 2 },
  "/request-log": { key_id: "key_1", user_id: "usr_1", status: 404, since: "2026-11-26T08:30:00.000Z", page: 2 },
  "/jobs": { status: "queued", kind: "recalculate", page: 2 },
  "/imports": { resource: "users" },
  "/acknowledgements": { page: 2 },
  "/plan-acknowledgements": { status: "pending", user: "usr_1", page: 2 },
};

describe("search parameters: zod-validated on every route that has them", () => {
  it("every route with search parameters is listed here with what its page writes", async () => {
    const routes = await routesWithSearch();
    expect(routes.map((r) => r.path).sort()).toEqual(Object.keys(WRITTEN).sort());
  });

  it("a link without parameters opens each page with its defaults", async () => {
    for (const { path, schema } of await routesWithSearch()) expect(validate(schema, {}), path).toEqual({});
  });

  it("a value that does not parse is dropped, never an error: the page opens with its default there", async () => {
    const garbage = {
      page: -2,
      per_page: "lots",
      status: "nope",
      sort: "sideways",
      deal_type: ["barter"],
      active: "x",
    };
    for (const { path, schema } of await routesWithSearch()) {
      const kept = validate(schema, { ...garbage, unknown_param: "kept out" });
      for (const key of Object.keys(garbage)) expect(kept[key], `${path} ${key}`).toBeUndefined();
    }
  });

  it("what a page writes comes back from the URL as it was written", async () => {
    for (const { path, schema, router } of await routesWithSearch()) {
      const written = WRITTEN[path]!;
      expect(validate(schema, written), path).toEqual(written);
      const url = router.options.stringifySearch(written);
      expect(validate(schema, router.options.parseSearch(url)), `${path} ${url}`).toEqual(written);
    }
  });

  it("a hand-written link (numbers and flags as plain text) reads as the page would write it", async () => {
    const { approvalsSearch } = await web("pages/approvals/schemas");
    const { router } = (await routesWithSearch())[0]!;
    const search = router.options.parseSearch("?arr_amount_min=2000&page=2&per_page=25&period=2026");
    expect(validate(approvalsSearch, search)).toEqual({
      arr_amount_min: "2000",
      page: 2,
      per_page: 25,
      period: "2026",
    });
  });

  it("the approval queue's filters go to the URL and come back as the same view, from page 1", async () => {
    const { searchOf, viewOf, FIRST_VIEW } = await web("pages/approvals/queue");
    const filters = {
      owner_id: "usr_1",
      period: "2026-Q3",
      arr_amount_min: "2000",
      arr_amount_max: "",
      deal_type: ["expansion"],
      plan_id: null,
    };
    expect(viewOf({ ...searchOf(filters), sort: "-arr_amount" })).toEqual({
      filters,
      sort: "-arr_amount",
      page: 1,
      perPage: FIRST_VIEW.perPage,
    });
    expect(viewOf({})).toEqual(FIRST_VIEW);
  });
});
