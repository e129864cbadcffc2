import type { Page } from "@playwright/test";
import { type SeededUser, state } from "./api.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";

// The deals page (/deals) against GET /deals read by the same person: the same deals in the same
// order, each linking to its page, with the reader's share of its commission (API.md §20 b).

test.use({ locale: "en-US" });
const money = (amount: number, currency = "USD") =>
  new Intl.NumberFormat("en-US", { style: "currency", currency, minimumFractionDigits: 2 }).format(amount);

type Api = Awaited<ReturnType<typeof apiAs>>;

/** Every row of the page's table equals the API's page of deals for `query`, in its order. */
async function expectListMatchesApi(page: Page, api: Api, viewer: SeededUser, query: string) {
  const answer = await api<any>("GET", `/deals?${query}`);
  expect(answer.status).toBe(200);
  const deals = answer.body.data as any[];
  expect(deals.length).toBeGreaterThan(0);
  const table = page.getByTestId("deal-list");
  const rows = table.locator("tbody tr");
  await expect(rows).toHaveCount(deals.length);
  await expect(page.getByTestId("deal-list-total")).toHaveText(
    `${answer.body.meta.total} ${answer.body.meta.total === 1 ? "deal" : "deals"}`,
  );
  const users = await api<any>("GET", "/users?per_page=100");
  const names = new Map<string, string>(users.body.data.map((u: any) => [u.id, u.name]));
  for (const [i, deal] of deals.entries()) {
    const row = rows.nth(i);
    await expect(row).toHaveAttribute("data-deal-id", deal.id);
    await expect(row.getByRole("link", { name: deal.opportunity_name })).toHaveAttribute("href", `/deals/${deal.id}`);
    await expect(row.locator('[data-col="commission"]')).toHaveText(money(deal.total_commission, deal.currency));
    await expect(row.locator('[data-col="arr"]')).toHaveText(money(deal.arr_amount, deal.currency));
    const owner = deal.owner_id === viewer.id ? "You" : (names.get(deal.owner_id) ?? "Split partner");
    await expect(row.locator('[data-col="owner"]')).toHaveText(owner);
    await expect(row).not.toContainText("usr_");
  }
}

test("a rep's deals page lists the deals the API gives her, with her own commission on each", async ({ page }) => {
  const { users, period } = state();
  const rita = users.rita;
  const api = await apiAs(rita);
  await signIn(page, rita, "/deals");
  await expect(page.getByRole("heading", { level: 1, name: "Deals" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Deals", exact: true })).toBeVisible();
  await expect(page.getByTestId("deal-list").getByRole("columnheader", { name: /Your commission/ })).toBeVisible();
  // A rep filters by nothing she cannot see: no owner filter.
  await expect(page.getByTestId("deal-filters").getByLabel("Owner")).toHaveCount(0);
  await expectListMatchesApi(page, api, rita, "sort=-close_date&page=1&per_page=25");
  const [from, to] = closeDatesOf(period);

  // Filters and sort live in the URL and equal the API's answer for the same query.
  await page.goto(`/deals?status=%5B%22approved%22%5D&period=${period}&sort=arr_amount`);
  await expectListMatchesApi(
    page,
    api,
    rita,
    `sort=arr_amount&page=1&per_page=25&status=approved&close_date_from=${from}&close_date_to=${to}`,
  );
  await page.getByRole("button", { name: /^ARR/ }).click();
  await expect(page).toHaveURL(/sort=-arr_amount/);
  await expectListMatchesApi(
    page,
    api,
    rita,
    `sort=-arr_amount&page=1&per_page=25&status=approved&close_date_from=${from}&close_date_to=${to}`,
  );
});

test("an admin's deals page searches by name and owner as GET /deals does, with each deal's total", async ({
  page,
}) => {
  const { users } = state();
  const admin = users.admin;
  const api = await apiAs(admin);
  await signIn(page, admin, "/deals");
  await expect(page.getByTestId("deal-list").getByRole("columnheader", { name: /Total commission/ })).toBeVisible();
  await expectListMatchesApi(page, api, admin, "sort=-close_date&page=1&per_page=25");

  const someDeal = (await api<any>("GET", `/deals?owner_id=${users.rita.id}&per_page=1`)).body.data[0];
  const word = someDeal.opportunity_name.split(" ")[0];
  await page.getByLabel("Deal name").fill(word);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/q=/);
  await expectListMatchesApi(page, api, admin, `sort=-close_date&page=1&per_page=25&q=${encodeURIComponent(word)}`);

  await page.goto(`/deals?owner_id=${users.rita.id}`);
  await expectListMatchesApi(page, api, admin, `sort=-close_date&page=1&per_page=25&owner_id=${users.rita.id}`);
});

/** The first and last day of a quarter label ("2026-Q4"). */
function closeDatesOf(period: string): [string, string] {
  const year = Number(period.slice(0, 4));
  const q = Number(period.slice(6));
  const first = `${year}-${String((q - 1) * 3 + 1).padStart(2, "0")}-01`;
  const last = new Date(Date.UTC(year, q * 3, 0)).toISOString().slice(0, 10);
  return [first, last];
}
