import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DealDetail } from "../../src/deals/index.js";
import type { User } from "../../src/users/index.js";
import { createApiKey, createUser } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, getDeal } from "../factories-commissions.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";
import { type Operation, operations } from "../route-case.js";
import { signedInAs } from "../sessions.js";

/**
 * API.md §20 (b) over the route table: a deal money total (`total_commission`, `commission_totals`, …) in
 * any GET answer is, for a rep or a manager, the sum of the lines they may see, to the cent — never the
 * deal's total, which minus their own line is their split partner's pay. Operations are found by their
 * documented response (a new one carrying such a field is covered by itself); the answers are walked
 * whole, so free-form ones (history entries' before/after) are checked too.
 */

const DEAL_TOTALS: ReadonlySet<string> = new Set(["total_commission", "commission_totals"]);

const t: TestApp = await createTestApp({ clock: new TestClock() });
const api = new Api(t, "admin");
/** A route's path with the split deal for `/deals/{id}`; undefined when another record would be needed. */
const DEAL_PATH = /^\/api\/v1\/deals\/\{id\}/;
const fillable = (op: Operation) => !/\{\w+\}/.test(op.path.replace(DEAL_PATH, ""));
const ROUTES = (await operations(t)).filter((op) => op.method === "GET" && op.access === "key");
const GETS = ROUTES.filter(fillable);
const carriesTotals = (op: Operation) => [...DEAL_TOTALS].some((field) => op.responseFields.has(field));

interface Viewer {
  name: string;
  headers: Record<string, string>;
  /** Whose lines they see: null = everyone's (the deal's total). */
  sees: string[] | null;
}

let deals: Record<"split" | "small" | "solo" | "others", DealDetail>;
const viewers: Viewer[] = [];
/** Per deal, per user: the cents of their non-void lines, as an admin reads them. */
const centsOf = new Map<string, Map<string, number>>();

const cents = (amount: number) => Math.round(amount * 100);

/** What this viewer must be shown as the deal's total, in cents. */
function expectedCents(viewer: Viewer, dealId: string): number {
  const byUser = centsOf.get(dealId)!;
  return [...byUser].reduce(
    (sum, [user, c]) => (viewer.sees === null || viewer.sees.includes(user) ? sum + c : sum),
    0,
  );
}

beforeAll(async () => {
  const manager = await createUser(t, { role: "manager" });
  const repA = await createUser(t, { role: "rep", manager_id: manager.id });
  const repC = await createUser(t, { role: "rep", manager_id: manager.id });
  const repB = await createUser(t, { role: "rep" });
  const plan = await createPlan(api, { tiers: [{ from_attainment: 0, rate: 0.1 }] });
  for (const user of [repA, repB, repC]) await assign(api, plan.id, user.id);
  const split = (parts: [User, number][]) => parts.map(([u, percent]) => ({ user_id: u.id, percent }));
  deals = {
    // The deal's total orders these differently from what repA or the manager sees of them.
    split: await createDeal(api, repB.id, {
      arr_amount: 12345.67,
      splits: split([
        [repA, 20],
        [repB, 70],
        [repC, 10],
      ]),
    }),
    small: await createDeal(api, repA.id, {
      arr_amount: 2000,
      splits: split([
        [repA, 80],
        [repB, 20],
      ]),
    }),
    solo: await createDeal(api, repA.id, { arr_amount: 3000 }),
    others: await createDeal(api, repB.id, { arr_amount: 500 }),
  };
  await approveAsOwner(t, deals.split.id);
  await approveAsOwner(t, deals.small.id);
  for (const deal of Object.values(deals)) {
    const byUser = new Map<string, number>();
    for (const line of (await getDeal(api, deal.id)).commissions) {
      if (line.status !== "void") byUser.set(line.user_id, (byUser.get(line.user_id) ?? 0) + cents(line.amount));
    }
    centsOf.set(deal.id, byUser);
  }
  const session = async (name: string, role: "admin" | "finance" | null, user?: User, sees: string[] | null = null) => {
    const s = await signedInAs(t, user ?? { role: role! });
    viewers.push({ name, headers: s.headers(), sees });
  };
  await session("repA", null, repA, [repA.id]);
  await session("their manager", null, manager, [manager.id, repA.id, repC.id]);
  await session("an admin", "admin");
  await session("finance", "finance");
  viewers.push({ name: "a read key", headers: bearer((await createApiKey(t, "read")).key), sees: null });
});

afterAll(async () => {
  await t.close();
});

const get = (viewer: Viewer, url: string) => t.app.inject({ method: "GET", url, headers: viewer.headers });

function urlOf(op: Operation): string {
  const filled = op.path.replace(DEAL_PATH, `/api/v1/deals/${deals.split.id}`);
  return op.queryParams.includes("per_page") ? `${filled}?per_page=100` : filled;
}

/** The amount of a one-currency commission_totals (0 when it has no line). */
function oneCurrency(totals: { currency: string; amount: number }[]): number {
  expect(totals.length).toBeLessThanOrEqual(1);
  return totals[0]?.amount ?? 0;
}

interface FoundTotal {
  id: unknown;
  field: string;
  value: unknown;
  scope: unknown;
}

/** Every deal money total anywhere in a JSON answer, with the record (`id`) it belongs to. */
function totalsIn(body: unknown, found: FoundTotal[] = []): FoundTotal[] {
  if (Array.isArray(body)) for (const item of body) totalsIn(item, found);
  else if (body && typeof body === "object") {
    const record = body as Record<string, unknown>;
    for (const [field, value] of Object.entries(record)) {
      if (DEAL_TOTALS.has(field)) found.push({ id: record.id, field, value, scope: record.total_commission_scope });
      else totalsIn(value, found);
    }
  }
  return found;
}

describe("the route table", () => {
  it("documents deal totals on GET /deals and GET /deals/{id}, and each of them can be called here", () => {
    const carrying = ROUTES.filter(carriesTotals);
    expect(carrying.map((op) => op.path)).toEqual(expect.arrayContaining(["/api/v1/deals", "/api/v1/deals/{id}"]));
    expect(
      carrying.filter((op) => !fillable(op)).map((op) => op.path),
      "give these paths a record",
    ).toEqual([]);
  });
});

describe.each(["repA", "their manager", "an admin", "finance", "a read key"])("%s", (name) => {
  const viewer = () => viewers.find((v) => v.name === name)!;

  it.each(GETS.map((op) => [`${op.method} ${op.path}`, op] as const))(
    "%s: every deal total is the sum of the lines they see, to the cent",
    async (_, op) => {
      const url = urlOf(op);
      const res = await get(viewer(), url);
      if (carriesTotals(op)) expect(res.statusCode, res.body).toBe(200);
      if (res.statusCode !== 200 || !res.headers["content-type"]?.toString().startsWith("application/json")) return;
      const found = totalsIn(res.json());
      if (carriesTotals(op)) expect(found.length, `${url} answered no deal total`).toBeGreaterThan(0);
      const scope = viewer().sees === null ? "deal" : "visible";
      for (const total of found) {
        expect(centsOf.has(String(total.id)), `a total of ${String(total.id)}`).toBe(true);
        // This data set is in one currency: commission_totals holds at most its one entry (API.md §15).
        const value = Array.isArray(total.value) ? oneCurrency(total.value) : total.value;
        const shown = { field: total.field, cents: cents(Number(value)), scope: total.scope };
        expect(shown, `${url} ${String(total.id)}`).toEqual({
          field: total.field,
          cents: expectedCents(viewer(), String(total.id)),
          scope,
        });
      }
    },
  );

  it.each(["total_commission", "-total_commission"])("GET /deals?sort=%s orders by what they see", async (sort) => {
    const res = await get(viewer(), `/api/v1/deals?per_page=100&sort=${sort}`);
    const listed = (res.json() as { data: { id: string }[] }).data.map((d) => d.id);
    const sign = sort.startsWith("-") ? -1 : 1;
    const order = [...listed].sort(
      (a, b) => sign * (expectedCents(viewer(), a) - expectedCents(viewer(), b) || (a < b ? -1 : a > b ? 1 : 0)),
    );
    expect(listed).toEqual(order);
  });
});

describe("ETags follow what each person is shown", () => {
  const etag = async (viewer: Viewer, url: string) => (await get(viewer, url)).headers.etag;

  it("a rep's and a manager's ETag of the split deal, alone or in a list, is not the deal-total one", async () => {
    const [rep, manager, admin, , key] = viewers;
    const urls = [
      `/api/v1/deals/${deals.split.id}`,
      `/api/v1/deals?q=${encodeURIComponent(deals.split.opportunity_name)}`,
    ];
    for (const url of urls) {
      const adminTag = await etag(admin!, url);
      expect(await etag(rep!, url), url).not.toBe(adminTag);
      expect(await etag(manager!, url), url).not.toBe(adminTag);
      expect(await etag(key!, url), url).toBe(adminTag);
    }
  });

  it("the sort really differs: the deal totals order the rep's deals otherwise", () => {
    const rep = viewers[0]!;
    const mine = [deals.split.id, deals.small.id, deals.solo.id];
    const byRep = [...mine].sort((a, b) => expectedCents(rep, a) - expectedCents(rep, b));
    const byDeal = [...mine].sort((a, b) => expectedCents(viewers[2]!, a) - expectedCents(viewers[2]!, b));
    expect(byRep).not.toEqual(byDeal);
  });
});

describe("a deal names the people on it", () => {
  it("a co-credited rep reads the owner's and every credited user's name, as an admin does", async () => {
    const [rep, , admin] = viewers;
    const people = async (viewer: Viewer) =>
      ((await get(viewer, `/api/v1/deals/${deals.split.id}`)).json() as DealDetail).people;
    const names = await Promise.all(
      deals.split.splits.map(async (s) => [s.user_id, (await api.get(`/users/${s.user_id}`)).json().name]),
    );
    const expected = [
      names.find(([id]) => id === deals.split.owner_id)!,
      ...names.filter(([id]) => id !== deals.split.owner_id),
    ];
    expect((await people(rep!)).map((p) => [p.user_id, p.name])).toEqual(expected);
    expect(await people(admin!)).toEqual(await people(rep!));
  });
});
