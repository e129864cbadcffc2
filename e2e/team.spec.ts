import type { Page } from "@playwright/test";
import { state } from "./api.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";

test.use({ locale: "en-US" });

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency, minimumFractionDigits: 2 }).format(amount);
const percent = (ratio: number) =>
  new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 2 }).format(ratio);
const day = (isoDate: string) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${isoDate}T00:00:00Z`));

type Api = Awaited<ReturnType<typeof apiAs>>;

/** Every page of GET /users/statements for a date, as this person reads it. */
async function teamOn(api: Api, on: string): Promise<{ rows: any[]; total: number }> {
  const rows: any[] = [];
  let total = 0;
  for (let page = 1; page <= 50; page++) {
    const res = await api("GET", `/users/statements?on=${on}&page=${page}&per_page=100`);
    expect(res.status).toBe(200);
    rows.push(...res.body.data);
    total = res.body.meta.total;
    if (res.body.data.length === 0 || rows.length >= total) break;
  }
  return { rows, total };
}

/** The statement requests the page makes: GET /users/statements (by page) and GET /users/{id}/statement. */
function countStatementRequests(page: Page) {
  const team: URL[] = [];
  const perPerson: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/api/v1/users/statements") team.push(url);
    if (/^\/api\/v1\/users\/[^/]+\/statement$/.test(url.pathname)) perPerson.push(url.pathname);
  });
  return { team, perPerson };
}

/** Each row as the API gives it, to the cent: its period, earned in all and by status, deals and attainment. */
async function expectRowsAsApi(page: Page, api: Api, rows: any[]) {
  const table = page.getByRole("table", { name: "Team" });
  for (const row of rows) {
    // The row's numbers are the person's statement for their own period, as GET /users/{id}/statement gives it.
    const { status, body } = await api("GET", `/users/${row.user.id}/statement?period=${row.period}`);
    expect(status).toBe(200);
    expect({ totals: row.totals, by_status: row.by_status, plans: row.plans }).toEqual({
      totals: body.totals,
      by_status: body.by_status,
      plans: body.plans,
    });
    const deals = new Set(body.lines.filter((l: any) => l.kind === "plan").map((l: any) => l.deal_id));
    expect(row.deals).toBe(deals.size);

    const tr = table.locator(`tr[data-user-id="${row.user.id}"]`);
    await expect(tr).toHaveAttribute("data-period", row.period);
    await expect(tr.locator('[data-col="period"]')).toContainText(row.period);
    const currency = body.plans[0]?.currency ?? "USD";
    await expect(tr.locator('[data-col="total"]')).toHaveText(money(body.totals.total, currency));
    await expect(tr.locator('[data-col="pending"]')).toHaveText(money(body.by_status.pending, currency));
    await expect(tr.locator('[data-col="approved"]')).toHaveText(money(body.by_status.approved, currency));
    await expect(tr.locator('[data-col="paid"]')).toHaveText(money(body.by_status.paid, currency));
    await expect(tr.locator('[data-col="deals"]')).toHaveText(String(deals.size));
    for (const plan of body.plans) {
      const cell = tr.locator(`[data-plan-id="${plan.plan_id}"]`);
      await expect(cell).toContainText(percent(plan.attainment_ratio));
      await expect(cell).toContainText(
        `${money(plan.attainment, plan.currency)} of ${money(plan.quota, plan.currency)}`,
      );
    }
  }
}

test("a manager's team: each person in their own plan's period, the API's numbers, one request per page of people", async ({
  page,
  problems,
}) => {
  test.slow(); // a statement read per person to compare with, twice
  const { users, planPeriods } = state();
  const { yearly, monthly } = planPeriods;
  const director = await apiAs(users.director);
  const requests = countStatementRequests(page);
  await signIn(page, users.director, "/team");
  await settled(page);
  const table = page.getByRole("table", { name: "Team" });

  // The page asked for each person's period on today's date (the browser's), a hundred people a request.
  const on = requests.team[0]?.searchParams.get("on") ?? "";
  expect(on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  const { rows: listed, total } = await teamOn(director, on);
  expect(requests.team.map((u) => [u.searchParams.get("on"), u.searchParams.get("per_page")])).toEqual(
    Array.from({ length: Math.ceil(total / 100) }, () => [on, "100"]),
  );
  expect(requests.team.map((u) => u.searchParams.get("page") ?? "1")).toEqual(
    Array.from({ length: Math.ceil(total / 100) }, (_, i) => String(i + 1)),
  );
  expect(requests.perPerson, "a statement request per person").toEqual([]);

  // The rows are the people the API lets the director see but himself: two levels down (rita, ravi, the
  // yearly and monthly reps under lead) and lead himself, never someone outside the tree.
  const below = listed.filter((r) => r.user.id !== users.director.id);
  const ids = below.map((r) => r.user.id);
  expect(ids).toEqual(expect.arrayContaining([users.lead.id, users.rita.id, users.ravi.id, yearly.id, monthly.id]));
  expect(ids).not.toContain(users.paula.id);
  await expect(table.locator("tbody tr")).toHaveCount(below.length);
  await expect(table.getByText(users.paula.name)).toHaveCount(0);

  // Each in their own plan's period: Yara's year, Milo's month, Rita's quarter; each has earned in it.
  const periodOf = (id: string) => below.find((r) => r.user.id === id)!.period;
  const quarter = `${on.slice(0, 4)}-Q${Math.ceil(Number(on.slice(5, 7)) / 3)}`;
  expect([periodOf(yearly.id), periodOf(monthly.id), periodOf(users.rita.id)]).toEqual([
    on.slice(0, 4),
    on.slice(0, 7),
    quarter,
  ]);
  for (const who of [yearly, monthly, users.rita]) {
    expect(below.find((r) => r.user.id === who.id)!.totals.total, who.name).toBeGreaterThan(0);
  }
  await expect(table.locator(`tr[data-user-id="${yearly.id}"] [data-col="period"]`)).toHaveText(
    `${on.slice(0, 4)} year`,
  );
  await expect(table.locator(`tr[data-user-id="${monthly.id}"] [data-col="period"]`)).toHaveText(
    `${on.slice(0, 7)} month`,
  );
  await expectRowsAsApi(page, director, below);
  const manager = table.locator(`tr[data-user-id="${users.rita.id}"] td`).nth(1);
  await expect(manager).toHaveText(users.lead.name);

  // The end of the quarter before: each person's period on that date, one request more.
  const before = requests.team.length;
  const previous = Number(on.slice(0, 4)) * 4 + Math.ceil(Number(on.slice(5, 7)) / 3) - 2;
  const [year, q] = [Math.floor(previous / 4), (previous % 4) + 1];
  const lastDay = new Date(Date.UTC(year, q * 3, 0)).toISOString().slice(0, 10);
  await page.getByRole("combobox", { name: "Periods on" }).click();
  await page.getByRole("option", { name: `${day(lastDay)} (end of ${year}-Q${q})` }).click();
  await expect(page).toHaveURL(new RegExp(`on=${lastDay}`));
  await settled(page);
  // Under load the page may settle before its request leaves: wait for it, then exactly that one.
  await expect.poll(() => requests.team.slice(before).map((u) => u.searchParams.get("on"))).toEqual([lastDay]);
  const { rows: then } = await teamOn(director, lastDay);
  const thenBelow = then.filter((r) => r.user.id !== users.director.id);
  expect(thenBelow.find((r) => r.user.id === yearly.id)!.period).toBe(lastDay.slice(0, 4));
  expect(thenBelow.find((r) => r.user.id === monthly.id)!.period).toBe(lastDay.slice(0, 7));
  expect(thenBelow.find((r) => r.user.id === users.rita.id)!.period).toBe(`${year}-Q${q}`);
  await expectRowsAsApi(page, director, thenBelow);
  expect(requests.perPerson).toEqual([]);

  // Sorted by what they earned, most first: the API's totals in that order.
  await table.getByRole("button", { name: "Earned" }).click();
  await table.getByRole("button", { name: /Earned/ }).click();
  await expect(table.locator("thead th[aria-sort='descending']")).toContainText("Earned");
  const order = [...thenBelow]
    .sort((a, b) => b.totals.total - a.totals.total || a.user.name.localeCompare(b.user.name))
    .map((r) => r.user.id);
  // Polled: the sort is marked before its rows are drawn in the new order.
  await expect
    .poll(() => table.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-user-id"))))
    .toEqual(order);

  await table.getByRole("link", { name: users.rita.name }).click();
  await expect(page).toHaveURL(new RegExp(`/people/${users.rita.id}$`));
  expect(problems).toEqual([]);
});

test("a rep who opens the team page by URL gets the not-allowed page, and no Team link", async ({ page, problems }) => {
  const { users } = state();
  await signIn(page, users.rita, "/team");
  await expect(page.getByRole("heading", { name: "You are not allowed to open this page" })).toBeVisible();
  await expect(page.getByText("It is for manager or finance or admin users.")).toBeVisible();
  await expect(page.getByRole("table")).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Team" })).toHaveCount(0);
  expect(problems).toEqual([]);
});
