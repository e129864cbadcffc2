import type { Page } from "@playwright/test";
import { type SeededUser, state } from "./api.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";

// The page formats with the browser's locale; the expected text is formatted here by the same rules.
test.use({ locale: "en-US" });
const money = (amount: number, currency = "USD") =>
  new Intl.NumberFormat("en-US", { style: "currency", currency, minimumFractionDigits: 2 }).format(amount);
const percent = (ratio: number) =>
  new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 2 }).format(ratio);
const date = (iso: string) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${iso}T00:00:00Z`));

/** This quarter and the three before it, oldest first. */
function lastFourQuarters(period: string): string[] {
  const [year, q] = [Number(period.slice(0, 4)), Number(period.slice(6))];
  return [3, 2, 1, 0].map((back) => {
    const index = year * 4 + (q - 1) - back;
    return `${Math.floor(index / 4)}-Q${(index % 4) + 1}`;
  });
}

/** Where the screenshots go: .e2e-results/ of this checkout (looked at by hand, not compared). */
const shot = (name: string) => new URL(`../.e2e-results/${name}`, import.meta.url).pathname;

type Api = Awaited<ReturnType<typeof apiAs>>;

async function statementOf(api: Api, user: SeededUser, period: string) {
  const res = await api<any>("GET", `/users/${user.id}/statement?period=${period}`);
  expect(res.status).toBe(200);
  return res.body;
}

/** The home of `person` on the page equals what `viewer`'s API session reads for them, to the cent. */
async function expectHomeMatchesApi(page: Page, api: Api, person: SeededUser) {
  const { period } = state();
  const current = await statementOf(api, person, period);
  expect(current.plans).toHaveLength(1);
  const plan = current.plans[0];
  const card = page.getByTestId(`plan-${plan.plan_id}`);
  await expect(card.getByTestId("attainment")).toHaveText(
    `${percent(plan.attainment_ratio)} of quota: ${money(plan.attainment)} of ${money(plan.quota)}`,
  );
  await expect(card.getByRole("img")).toHaveAccessibleName(
    `Attainment ${percent(plan.attainment_ratio)} of a ${money(plan.quota)} quota; bands start at ` +
      plan.tiers
        .filter((t: { from_attainment: number }) => t.from_attainment > 0)
        .map((t: { from_attainment: number }) => percent(t.from_attainment))
        .join(", "),
  );
  await expect(card.getByTestId("current-rate")).toHaveText(`Current rate: ${percent(plan.current_rate)}`);
  expect(plan.next_tier).not.toBeNull();
  await expect(card.getByTestId("next-tier")).toHaveText(
    `ARR to the next tier: ${money(plan.next_tier.arr_to_reach)}, then ${percent(plan.next_tier.rate)} from ` +
      `${percent(plan.next_tier.from_attainment)} of quota`,
  );
  for (const [key, amount] of [
    ["total", current.totals.total],
    ["pending", current.by_status.pending],
    ["approved", current.by_status.approved],
    ["paid", current.by_status.paid],
  ] as const) {
    await expect(page.getByTestId(`earned-${key}`).getByTestId("amount")).toHaveText(money(amount));
  }
  for (const p of lastFourQuarters(period)) {
    const total = (await statementOf(api, person, p)).totals.total;
    await expect(page.getByTestId(`period-earned-${p}`)).toHaveText(new RegExp(`${p}: ${escapeRegExp(money(total))}$`));
  }
  const deals = await api<any>("GET", `/deals?owner_id=${person.id}&sort=-close_date&per_page=5`);
  const rows = page.getByTestId("recent-deals").locator("tbody tr");
  await expect(rows).toHaveCount(deals.body.data.length);
  for (const [i, deal] of deals.body.data.entries()) {
    await expect(rows.nth(i)).toHaveAttribute("data-deal-id", deal.id);
    await expect(rows.nth(i).getByRole("link", { name: deal.opportunity_name })).toHaveAttribute(
      "href",
      `/deals/${deal.id}`,
    );
    await expect(rows.nth(i).getByTestId("commission")).toHaveText(money(deal.total_commission));
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("rita's home shows her statement's numbers to the cent", async ({ page, problems }) => {
  const { users } = state();
  await signIn(page, users.rita, "/");
  await expectHomeMatchesApi(page, await apiAs(users.rita), users.rita);
  await page.setViewportSize({ width: 1280, height: 1400 });
  await page.screenshot({ path: shot("home-1280.png"), fullPage: true });
  await page.setViewportSize({ width: 360, height: 800 });
  await page.reload();
  await expect(page.getByTestId("recent-deals")).toBeVisible();
  expect(Number(await page.evaluate("document.documentElement.scrollWidth"))).toBeLessThanOrEqual(360);
  await page.screenshot({ path: shot("home-360.png"), fullPage: true });
  expect(problems).toEqual([]);
});

test("a manager opening a report's page sees that person's numbers", async ({ page, problems }) => {
  const { users } = state();
  await signIn(page, users.director, `/people/${users.rita.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(users.rita.name);
  await expectHomeMatchesApi(page, await apiAs(users.director), users.rita);
  expect(problems).toEqual([]);
});

test("a rep opening someone outside what they see gets the not-found page", async ({ page, problems }) => {
  const { users } = state();
  await signIn(page, users.rita, `/people/${users.paula.id}`);
  await expect(page.getByRole("heading", { name: "This person does not exist" })).toBeVisible();
  await expect(page.getByTestId("earned-total")).toHaveCount(0);
  expect(problems).toEqual([]);
});

test("the statement page lists the API's lines and totals, prints, and downloads the API's CSV", async ({
  page,
  problems,
}) => {
  const { users, period } = state();
  const statement = await statementOf(await apiAs(users.rita), users.rita, period);
  await signIn(page, users.rita, `/statements/${period}`);
  await expect(page.getByRole("heading", { name: `Statement ${period}` })).toBeVisible();

  const rows = page.getByTestId("statement-lines").locator("tbody tr");
  await expect(rows).toHaveCount(statement.lines.length);
  const kinds: Record<string, string> = { plan: "Plan", spiff: "SPIFF", adjustment: "Adjustment" };
  const types: Record<string, string> = { new_business: "New business", expansion: "Expansion", renewal: "Renewal" };
  for (const [i, line] of statement.lines.entries()) {
    const row = rows.nth(i);
    await expect(row).toHaveAttribute("data-line-id", line.id);
    // The deal by its name, linked; its id is the link's address, never the text.
    const link = row.getByRole("link", { name: line.deal.opportunity_name });
    await expect(link).toHaveAttribute("href", `/deals/${line.deal_id}`);
    await expect(row.locator("td")).toHaveText([
      `${line.deal.opportunity_name}${types[line.deal.deal_type] ?? "Other"}`,
      money(line.amount),
      line.status,
      date(line.deal.close_date),
      money(line.deal.arr_amount),
      line.deal.credit_percent === null ? "—" : percent(line.deal.credit_percent / 100),
      kinds[line.kind]!,
      line.explanation.summary,
    ]);
  }
  const byKind = page.getByTestId("totals-by-kind");
  for (const key of ["plan", "spiff", "adjustment", "total"] as const) {
    await expect(byKind.locator(`[data-key=${key}] td`)).toHaveText(money(statement.totals[key]));
  }
  const byStatus = page.getByTestId("totals-by-status");
  for (const key of ["pending", "approved", "paid"] as const) {
    await expect(byStatus.locator(`[data-key=${key}] td`)).toHaveText(money(statement.by_status[key]));
  }
  const planRow = page.getByTestId("statement-plans").locator(`[data-plan-id=${statement.plans[0].plan_id}] td`);
  await expect(planRow).toHaveText([
    statement.plans[0].plan_name,
    money(statement.plans[0].quota),
    money(statement.plans[0].attainment),
    percent(statement.plans[0].attainment_ratio),
    percent(statement.plans[0].current_rate),
    "—",
  ]);
  expect(statement.plans[0].cap_per_period).toBeNull();

  // CSV: the file saved is what the API's statement.csv answers this session, with the deal columns.
  const expected = await page.request.get(
    `/api/v1/users/${users.rita.id}/statement.csv?period=${period}&deal_columns=true`,
  );
  expect(expected.status()).toBe(200);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`statement-${users.rita.id}-${period}.csv`);
  const saved = await download.path();
  const { readFileSync } = await import("node:fs");
  expect(readFileSync(saved).equals(await expected.body())).toBe(true);
  expect(readFileSync(saved, "utf8").split("\r\n")[0]).toContain(
    "opportunity_name,close_date,arr_amount,deal_currency,credit_percent",
  );

  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.screenshot({ path: shot("statement-1280.png"), fullPage: true });
  await page.setViewportSize({ width: 360, height: 800 });
  await page.reload();
  await expect(page.getByTestId("statement-lines")).toBeVisible();
  expect(Number(await page.evaluate("document.documentElement.scrollWidth"))).toBeLessThanOrEqual(360);
  await page.screenshot({ path: shot("statement-360.png"), fullPage: true });

  // Print: the frame is hidden, the statement stays; Chromium makes a PDF of it.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("navigation", { name: "Pages" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Download CSV" })).toBeHidden();
  await expect(page.getByTestId("statement-lines")).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 1000 });
  const pdf = await page.pdf({ format: "A4" });
  expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  await page.screenshot({ path: shot("statement-print.png"), fullPage: true });
  expect(problems).toEqual([]);
});
