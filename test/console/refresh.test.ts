import { readdirSync, readFileSync } from "node:fs";
import type { QueryClient } from "@tanstack/react-query";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Every write of the console goes through data/write.ts, which reads again what data/refresh.ts says
// the write made stale. These tests hold that table to what the pages show: after each write, the
// queries of every page it changes are stale (the issue: resolving a dispute refreshed neither the
// home, the statement nor the to-pay list).

const web = (path: string): Promise<any> => import(`../../web/src/${path}`);
const SRC = new URL("../../web/src/", import.meta.url);

beforeAll(() => {
  vi.stubGlobal("location", new URL("http://console.test/"));
});

afterAll(() => {
  vi.unstubAllGlobals();
});

/** The queries a page reads, as the page makes them (one person, one deal, one plan). */
async function pages() {
  const { currentStatements, recentDeals } = await web("pages/home/loader");
  const { dealDisputes } = await web("pages/deals/loader");
  const { statementQuery, periodsQuery, teamStatementsQuery, teamOnQuery, payoutBalancesQuery } =
    await web("data/statements/queries");
  const { payoutRunsQuery, payoutRunQuery } = await web("data/payout-runs/queries");
  const { dealsQuery, dealQuery, dealHistoryQuery } = await web("data/deals/queries");
  const { disputesQuery } = await web("data/disputes/queries");
  const { payoutsQuery, allPayoutGroupsQuery } = await web("data/payouts/queries");
  const { everyoneQuery, usersQuery, userQuery, reportingLinesQuery } = await web("data/users/queries");
  const { planQuery, plansQuery, planAssignmentsQuery, allAssignmentsQuery } = await web("data/comp-plans/queries");
  const { spiffsQuery } = await web("data/spiffs/queries");
  const { apiKeysQuery } = await web("data/api-keys/queries");
  const { subscriptionsQuery, deliveriesQuery } = await web("data/webhooks/queries");
  const { auditEventsQuery } = await web("data/audit-events/queries");
  const { exchangeRatesQuery } = await web("data/exchange-rates/queries");
  const { drawsQuery, drawQuery } = await web("data/draws/queries");
  const { myAcknowledgementsQuery, acknowledgementsQuery, acknowledgementQuery } = await web(
    "data/plan-acknowledgements/queries",
  );
  return {
    // Home's current periods, and its other periods (what is still in flight from them).
    home: [...currentStatements("usr_1"), periodsQuery("usr_1"), payoutBalancesQuery("usr_1")],
    recentDeals: [recentDeals("usr_1")],
    person: [userQuery("usr_1"), reportingLinesQuery("usr_1")],
    // The statement and its period picker.
    statement: [statementQuery("usr_1", "2026-Q3"), periodsQuery("usr_1")],
    // The statement's draws and the draws page with a draw opened (API.md §18).
    draws: [
      drawsQuery({ user_id: "usr_1", per_page: 100 }),
      drawsQuery({ page: 1, per_page: 25 }),
      drawQuery("draw_1"),
    ],
    deal: [dealQuery("deal_1"), dealHistoryQuery("deal_1", 1)],
    dealDisputes: [dealDisputes("deal_1")],
    approvalQueue: [dealsQuery({ status: ["pending"], sort: "-created_at", page: 1, per_page: 50 })],
    toPay: [dealsQuery({ status: ["approved"], sort: "close_date", page: 1, per_page: 50 })],
    payouts: [payoutsQuery({ page: 1, per_page: 25 })],
    payoutRuns: [payoutRunsQuery({ page: 1, per_page: 10 })],
    payoutRun: [payoutRunQuery("prun_1", { page: 1, per_page: 50 })],
    // The deals page (every role) and finance's home (what is owed in all).
    dealList: [dealsQuery({ sort: "-close_date", page: 1, per_page: 25 })],
    owed: [allPayoutGroupsQuery()],
    myDisputes: [disputesQuery({ page: 1, per_page: 25 })],
    disputeQueue: [disputesQuery({ status: ["open"], page: 1, per_page: 20 })],
    teamMembers: [everyoneQuery()],
    // The team page and the manager's home: each person in their own period on a date, page by page.
    teamNumbers: [teamOnQuery("2026-11-27"), teamStatementsQuery({ on: "2026-11-27", page: 1, per_page: 100 })],
    people: [usersQuery({ page: 1, per_page: 25 })],
    plans: [plansQuery({ page: 1, per_page: 25 })],
    plan: [planQuery("plan_1"), planAssignmentsQuery("plan_1")],
    // An admin's setup checklist: how many assignments there are, over every plan.
    assignmentCount: [allAssignmentsQuery({ page: 1, per_page: 1 })],
    spiffs: [spiffsQuery({ page: 1, per_page: 25 })],
    apiKeys: [apiKeysQuery({ page: 1, per_page: 25 })],
    webhooks: [subscriptionsQuery({ page: 1, per_page: 25 }), deliveriesQuery("whsub_1", { page: 1, per_page: 25 })],
    audit: [auditEventsQuery({ page: 1, per_page: 50 })],
    exchangeRates: [exchangeRatesQuery({ page: 1, per_page: 25 })],
    // The person's plans to acknowledge (their page and the home's prompt), one of them, and who has not.
    acknowledgements: [
      myAcknowledgementsQuery({ page: 1, per_page: 25 }),
      myAcknowledgementsQuery({ status: "pending", page: 1, per_page: 1 }),
      acknowledgementQuery("pack_1"),
      acknowledgementsQuery({ page: 1, per_page: 25 }),
    ],
  };
}

type Page = keyof Awaited<ReturnType<typeof pages>>;

/**
 * After each write, the pages whose numbers or lists it changes (the audit log is stale after every
 * write). Lists of a resource are read again together (the approval queue with the to-pay list).
 */
const CHANGES: [write: string, pages: Page[]][] = [
  // A deal written or deleted prices its periods again: its owner's numbers, the lists and the queue.
  ...(["POST /api/v1/deals", "PATCH /api/v1/deals/{id}", "DELETE /api/v1/deals/{id}"] as const).map(
    (write): [string, Page[]] => [
      write,
      [
        "home",
        "recentDeals",
        "dealList",
        "statement",
        "deal",
        "approvalQueue",
        "toPay",
        "payouts",
        "owed",
        "teamNumbers",
      ],
    ],
  ),
  [
    "POST /api/v1/deals/{id}/approve",
    [
      "home",
      "recentDeals",
      "dealList",
      "statement",
      "deal",
      "approvalQueue",
      "toPay",
      "payouts",
      "owed",
      "teamNumbers",
    ],
  ],
  [
    "POST /api/v1/deals/{id}/reject",
    ["home", "recentDeals", "dealList", "statement", "deal", "approvalQueue", "teamNumbers"],
  ],
  [
    "POST /api/v1/deals/{id}/mark-paid",
    ["home", "recentDeals", "dealList", "statement", "deal", "toPay", "payouts", "owed", "teamNumbers"],
  ],
  [
    "POST /api/v1/commissions/adjustments",
    ["home", "recentDeals", "dealList", "statement", "deal", "toPay", "payouts", "owed", "teamNumbers"],
  ],
  [
    "POST /api/v1/deals/{id}/disputes",
    ["recentDeals", "dealList", "deal", "dealDisputes", "toPay", "myDisputes", "disputeQueue"],
  ],
  [
    "POST /api/v1/disputes/{id}/resolve",
    [
      "home",
      "recentDeals",
      "dealList",
      "statement",
      "deal",
      "dealDisputes",
      "toPay",
      "payouts",
      "owed",
      "myDisputes",
      "disputeQueue",
      "teamNumbers",
    ],
  ],
  ["POST /api/v1/comp-plans", ["plans", "plan", "assignmentCount"]],
  // A new version and an assignment ask people to acknowledge the plan.
  [
    "PATCH /api/v1/comp-plans/{id}",
    [
      "plan",
      "plans",
      "home",
      "recentDeals",
      "dealList",
      "statement",
      "deal",
      "teamNumbers",
      "payouts",
      "owed",
      "acknowledgements",
    ],
  ],
  [
    "POST /api/v1/comp-plans/{id}/assignments",
    [
      "plan",
      "assignmentCount",
      "home",
      "recentDeals",
      "dealList",
      "statement",
      "deal",
      "teamNumbers",
      "acknowledgements",
    ],
  ],
  ["POST /api/v1/plan-acknowledgements/{id}/acknowledge", ["acknowledgements"]],
  [
    "PATCH /api/v1/plan-assignments/{id}",
    ["plan", "assignmentCount", "home", "recentDeals", "dealList", "statement", "deal", "teamNumbers"],
  ],
  [
    "DELETE /api/v1/plan-assignments/{id}",
    ["plan", "assignmentCount", "home", "recentDeals", "dealList", "statement", "deal", "teamNumbers"],
  ],
  ["POST /api/v1/spiffs", ["spiffs", "home", "recentDeals", "dealList", "statement", "deal", "teamNumbers"]],
  ["PATCH /api/v1/spiffs/{id}", ["spiffs", "home", "recentDeals", "dealList", "statement", "deal", "teamNumbers"]],
  ["POST /api/v1/users", ["people", "teamMembers", "person", "teamNumbers"]],
  // A changed manager moves pending override lines (API.md §16): the deals, statements and what is owed.
  [
    "PATCH /api/v1/users/{id}",
    [
      "people",
      "teamMembers",
      "person",
      "teamNumbers",
      "home",
      "recentDeals",
      "dealList",
      "statement",
      "deal",
      "approvalQueue",
      "toPay",
      "payouts",
      "owed",
    ],
  ],
  ["POST /api/v1/users/{id}/reporting-lines/impact", []],
  // An import of deals creates and changes pending deals (the approval queue) and their lines.
  [
    "POST /api/v1/imports/deals",
    [
      "home",
      "recentDeals",
      "dealList",
      "statement",
      "deal",
      "approvalQueue",
      "toPay",
      "payouts",
      "owed",
      "teamNumbers",
    ],
  ],
  [
    "POST /api/v1/imports/users",
    [
      "people",
      "teamMembers",
      "person",
      "teamNumbers",
      "home",
      "recentDeals",
      "dealList",
      "statement",
      "deal",
      "approvalQueue",
      "toPay",
      "payouts",
      "owed",
    ],
  ],
  ["POST /api/v1/api-keys", ["apiKeys"]],
  ["POST /api/v1/api-keys/{id}/rotate", ["apiKeys"]],
  ["POST /api/v1/api-keys/{id}/revoke", ["apiKeys"]],
  ["POST /api/v1/webhook-subscriptions", ["webhooks"]],
  ["PATCH /api/v1/webhook-subscriptions/{id}", ["webhooks"]],
  ["POST /api/v1/webhook-subscriptions/{id}/test", ["webhooks"]],
  ["POST /api/v1/webhook-deliveries/{id}/retry", ["webhooks"]],
  ["POST /api/v1/commissions/preview", []],
  // A rate set prices again the pending deals converted on its days.
  ...(["PUT /api/v1/exchange-rates/{date}", "DELETE /api/v1/exchange-rates/{date}"] as const).map(
    (write): [string, Page[]] => [
      write,
      [
        "exchangeRates",
        "home",
        "recentDeals",
        "dealList",
        "statement",
        "deal",
        "approvalQueue",
        "toPay",
        "payouts",
        "owed",
        "teamNumbers",
      ],
    ],
  ),
  // A run takes lines (a statement line names its run) out of what is owed; finalizing pays lines and deals.
  // A run settles draw periods: its draw lines, and the draws' periods, entries and balances.
  ["POST /api/v1/payout-runs", ["payoutRuns", "payoutRun", "payouts", "owed", "statement", "home", "draws"]],
  [
    "POST /api/v1/payout-runs/{id}/finalize",
    [
      "payoutRuns",
      "payoutRun",
      "home",
      "recentDeals",
      "dealList",
      "statement",
      "deal",
      "toPay",
      "payouts",
      "owed",
      "teamNumbers",
      "draws",
    ],
  ],
  [
    "POST /api/v1/payout-runs/{id}/cancel",
    ["payoutRuns", "payoutRun", "payouts", "owed", "statement", "home", "draws"],
  ],
  // A draw writes no line: the draws, and a person's payout balances (home) that list open draws.
  ...(["POST /api/v1/draws", "POST /api/v1/draws/{id}/end", "POST /api/v1/draws/{id}/forgive"] as const).map(
    (write): [string, Page[]] => [write, ["draws", "home", "statement"]],
  ),
  // A cancellation or refund writes clawback lines.
  [
    "POST /api/v1/deals/{id}/cancel",
    ["home", "recentDeals", "dealList", "statement", "deal", "toPay", "payouts", "owed", "teamNumbers"],
  ],
  [
    "POST /api/v1/deals/{id}/refunds",
    ["home", "recentDeals", "dealList", "statement", "deal", "toPay", "payouts", "owed", "teamNumbers"],
  ],
  ["POST /api/v1/deals/{id}/clawback-preview", []],
  ["POST /api/v1/auth/password-reset", []],
  // The saved settings are the answer, cached by the write itself.
  ["POST /api/v1/me/notifications", []],
];

/** Pages no write outside their own resource touches: they must keep their data unless a row names them. */
const ELSEWHERE: Page[] = [
  "person",
  "people",
  "teamMembers",
  "plan",
  "spiffs",
  "apiKeys",
  "webhooks",
  "payoutRuns",
  "payoutRun",
  "exchangeRates",
  "draws",
  "acknowledgements",
];

/** A client holding every page's queries with data, none stale yet. */
async function cached(): Promise<{ client: QueryClient; byPage: Awaited<ReturnType<typeof pages>> }> {
  const { QueryClient } = await import("@tanstack/react-query");
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } } });
  const byPage = await pages();
  for (const queries of Object.values(byPage)) for (const q of queries) client.setQueryData(q.queryKey, { data: [] });
  return { client, byPage };
}

const stale = (client: QueryClient, query: { queryKey: readonly unknown[] }) =>
  client.getQueryState(query.queryKey)?.isInvalidated === true;

describe("data/refresh.ts: what each write makes stale", () => {
  it.each(CHANGES)(
    "%s: the pages it changes read again; other resources' pages keep their data",
    async (write, changed) => {
      const { refresh } = await web("data/refresh");
      const { client, byPage } = await cached();
      await refresh(client, write);
      for (const [page, queries] of Object.entries(byPage) as [Page, { queryKey: unknown[] }[]][]) {
        if (page === "audit" || changed.includes(page)) {
          for (const q of queries) expect(stale(client, q), `${page} ${JSON.stringify(q.queryKey)}`).toBe(true);
        } else if (ELSEWHERE.includes(page)) {
          expect(
            queries.some((q) => stale(client, q)),
            `${page} stayed`,
          ).toBe(false);
        }
      }
    },
  );

  it("sign-in, sign-out, an accepted invitation and a password reset drop the whole cache (another person's view)", async () => {
    const { refresh } = await web("data/refresh");
    for (const write of [
      "POST /api/v1/auth/login",
      "POST /api/v1/auth/logout",
      "POST /api/v1/auth/invitations/accept",
      "POST /api/v1/auth/password-reset/confirm",
    ]) {
      const { client } = await cached();
      await refresh(client, write);
      expect(client.getQueryCache().getAll(), write).toEqual([]);
    }
  });

  it("a deleted record is marked stale and not asked for again; its lists are", async () => {
    const { refresh } = await web("data/refresh");
    const { keys } = await web("data/keys");
    const { QueryClient, QueryObserver } = await import("@tanstack/react-query");
    const client = new QueryClient();
    const fetched: string[] = [];
    const detail = keys.webhooks.detail("whsub_1");
    const list = keys.webhooks.list({ page: 1 });
    // Both on screen (observed): an invalidated query that is observed is read again at once.
    for (const key of [detail, list]) {
      client.setQueryData(key, 1);
      const queryFn = async () => {
        fetched.push(JSON.stringify(key));
        return 1;
      };
      new QueryObserver(client, { queryKey: key, queryFn, staleTime: Number.POSITIVE_INFINITY }).subscribe(() => {});
    }
    fetched.length = 0;
    await refresh(client, "DELETE /api/v1/webhook-subscriptions/{id}", detail);
    expect(fetched).toEqual([JSON.stringify(list)]);
    expect(client.getQueryState(detail)?.isInvalidated).toBe(true);
  });

  it("every mutation of the console goes through data/write.ts: no other file invalidates or mutates", () => {
    const offenders: string[] = [];
    const walk = (dir: URL, rel: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(new URL(`${entry.name}/`, dir), `${rel}${entry.name}/`);
        else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
          const file = `${rel}${entry.name}`;
          if (file === "data/write.ts" || file === "data/refresh.ts") continue;
          const text = readFileSync(new URL(entry.name, dir), "utf8");
          if (/\buseMutation\b|\binvalidateQueries\b|\bsetQueryData\b|\bremoveQueries\b/.test(text))
            offenders.push(file);
        }
      }
    };
    walk(SRC, "");
    // A new session is cached by the sign-in's write itself, and a lost one is set to null (main.tsx).
    expect(offenders.sort()).toEqual(["data/auth/mutations.ts", "main.tsx"]);
  });

  it("every write a data/*/mutations.ts makes names its row of the table", async () => {
    const { REFRESH } = await web("data/refresh");
    const rows = new Set(Object.keys(REFRESH));
    const data = new URL("data/", SRC);
    for (const resource of readdirSync(data, { withFileTypes: true }).filter((e) => e.isDirectory())) {
      const file = new URL(`${resource.name}/mutations.ts`, data);
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch {
        continue;
      }
      // Each api.POST/PATCH/PUT/DELETE("/api/v1/…") call sits in a useWrite("METHOD /api/v1/…") of its own.
      const calls = [...text.matchAll(/api\.(POST|PATCH|PUT|DELETE)\("([^"]+)"/g)].map(([, m, p]) => `${m} ${p}`);
      const writes = [...text.matchAll(/useWrite\(\s*"([^"]+)"/g)].map(([, w]) => w);
      for (const call of calls) {
        expect(rows.has(call), call).toBe(true);
        if (!call.startsWith("POST /api/v1/users/{id}/invitations"))
          expect(writes, `${resource.name}: ${call}`).toContain(call);
      }
    }
  });
});
