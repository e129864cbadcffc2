import type { Page } from "@playwright/test";
import { state } from "./api.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";

// Finance's, a manager's and an admin's homes against the API read by the same person: every number
// on them is the API's (sums in whole cents, never across currencies).

test.use({ locale: "en-US" });
const money = (amount: number, currency = "USD") =>
  new Intl.NumberFormat("en-US", { style: "currency", currency, minimumFractionDigits: 2 }).format(amount);
const cents = (amount: number) => Math.round(amount * 100);

type Api = Awaited<ReturnType<typeof apiAs>>;

async function everyPage(api: Api, path: string): Promise<any[]> {
  const all: any[] = [];
  for (let page = 1; page <= 50; page++) {
    const res = await api<any>("GET", `${path}${path.includes("?") ? "&" : "?"}page=${page}&per_page=100`);
    expect(res.status).toBe(200);
    all.push(...res.body.data);
    if (res.body.data.length === 0 || all.length >= res.body.meta.total) break;
  }
  return all;
}

const totalOf = async (api: Api, path: string) => (await api<any>("GET", path)).body.meta.total as number;

/** Every API request the page makes from now on (path and query). */
function apiRequests(page: Page): string[] {
  const asked: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/v1/")) asked.push(url.pathname + url.search);
  });
  return asked;
}

/** What a person's own commissions read (a rep's home): finance's and an admin's homes show none of it. */
const ownCommissions = (asked: string[]) => asked.filter((path) => /\/statement\?|[?&]owner_id=/.test(path));

test("finance's home shows what GET /payouts owes, by period and currency, with a total per currency", async ({
  page,
  problems,
}) => {
  const { users } = state();
  const api = await apiAs(users.finance);
  const groups = await everyPage(api, "/payouts");
  expect(groups.length).toBeGreaterThan(0);
  const asked = apiRequests(page);
  await signIn(page, users.finance, "/");
  await expect(page.getByRole("heading", { level: 1, name: "What is owed" })).toBeVisible();
  const byCurrency = new Map<string, number>();
  const byPeriod = new Map<string, number>();
  for (const g of groups) {
    byCurrency.set(g.currency, (byCurrency.get(g.currency) ?? 0) + cents(g.total));
    const key = `${g.period} ${g.currency}`;
    byPeriod.set(key, (byPeriod.get(key) ?? 0) + cents(g.total));
  }
  await expect(page.getByTestId("owed-grand-total")).toHaveCount(byCurrency.size);
  for (const [currency, total] of byCurrency) {
    await expect(
      page.locator(`[data-testid="owed-grand-total"][data-currency="${currency}"]`).getByTestId("amount"),
    ).toHaveText(money(total / 100, currency));
  }
  const rows = page.getByTestId("owed-by-period").locator("tbody tr");
  await expect(rows).toHaveCount(byPeriod.size);
  for (const [key, total] of byPeriod) {
    const [period, currency] = key.split(" ") as [string, string];
    const row = page.locator(`[data-period="${period}"][data-currency="${currency}"]`);
    await expect(row.locator('[data-col="owed"]')).toHaveText(money(total / 100, currency));
  }
  // Loaded again (boot.ts now remembers who, and their role): still only what the home shows.
  await page.reload();
  await expect(page.getByTestId("owed-grand-total").first()).toBeVisible();
  expect(asked).toContain("/api/v1/payouts?page=1&per_page=100");
  expect(ownCommissions(asked)).toEqual([]);
  await page.getByTestId("go-pay").click();
  await expect(page).toHaveURL(/\/payouts$/);
  expect(problems).toEqual([]);
});

/** Today in this machine's zone, as the console's lib/periods today() gives it in the browser. */
function today(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

test("a manager's home shows the team's current periods and what waits for them, as the API gives them", async ({
  page,
  problems,
}) => {
  const { users } = state();
  const director = users.director;
  const api = await apiAs(director);
  // Each person in their own plan's current period (a month, a quarter or a year).
  const team = (await everyPage(api, `/users/statements?on=${today()}`)).filter(
    (row) => row.user.id !== director.id && row.user.active,
  );
  const sums = { total: 0, pending: 0, approved: 0, paid: 0 };
  for (const row of team) {
    const s = (await api<any>("GET", `/users/${row.user.id}/statement?period=${row.period}`)).body;
    expect({ totals: row.totals, by_status: row.by_status }).toEqual({ totals: s.totals, by_status: s.by_status });
    if (s.plans.length === 0) continue;
    sums.total += cents(s.totals.total);
    sums.pending += cents(s.by_status.pending);
    sums.approved += cents(s.by_status.approved);
    sums.paid += cents(s.by_status.paid);
  }
  expect(sums.total).toBeGreaterThan(0);
  await signIn(page, director, "/");
  const home = page.getByTestId("manager-home");
  await expect(
    home.getByRole("heading", { name: `Your team's current periods (${team.length} people)` }),
  ).toBeVisible();
  for (const [key, amount] of Object.entries(sums)) {
    await expect(home.getByTestId(`team-${key}`).getByTestId("amount")).toHaveText(money(amount / 100));
  }
  await expect(home.getByTestId("waiting-disputes").getByTestId("count")).toHaveText(
    String(await totalOf(api, "/disputes?status=open&per_page=1")),
  );
  await expect(home.getByTestId("waiting-pending-deals").getByTestId("count")).toHaveText(
    String(await totalOf(api, "/deals?status=pending&per_page=1")),
  );
  // Their own commissions follow.
  await expect(page.getByRole("heading", { name: "Recent deals" })).toBeVisible();
  expect(problems).toEqual([]);
});

test("a set-up company's admin home is the task inbox, its counts the API's, each linking to its queue", async ({
  page,
  problems,
}) => {
  const { users } = state();
  const api = await apiAs(users.admin);
  // Set up: every checklist step has at least one record.
  for (const path of ["/comp-plans", "/users?role=rep", "/deals", "/api-keys"]) {
    expect(await totalOf(api, `${path}${path.includes("?") ? "&" : "?"}per_page=1`), path).toBeGreaterThan(0);
  }
  const asked = apiRequests(page);
  await signIn(page, users.admin, "/");
  await expect(page.getByTestId("task-inbox")).toBeVisible();
  await expect(page.getByTestId("setup-checklist")).toHaveCount(0);
  const expected: [string, string, string][] = [
    ["approvals", "/deals?status=pending&per_page=1", "/approvals"],
    ["disputes", "/disputes?status=open&per_page=1", "/dispute-queue"],
    ["payouts", "/payouts?per_page=1", "/payouts"],
  ];
  for (const [id, path, to] of expected) {
    const card = page.getByTestId(`task-${id}`);
    await expect(card.getByTestId("count")).toHaveText(String(await totalOf(api, path)));
    await expect(card.getByRole("link")).toHaveAttribute("href", to);
  }
  // The checklist's counts and the inbox's, each one request (assignments over every plan at once);
  // loaded again too (boot.ts asks early, by the remembered role); never the admin's own commissions.
  await page.reload();
  await expect(page.getByTestId("task-inbox")).toBeVisible();
  expect(asked).toContain("/api/v1/plan-assignments?page=1&per_page=1");
  expect(asked.filter((path) => path.includes("/assignments"))).toEqual([]);
  expect(ownCommissions(asked)).toEqual([]);
  expect(problems).toEqual([]);
});
