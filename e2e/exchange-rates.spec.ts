import type { Page } from "@playwright/test";
import { asAdmin, state } from "./api.js";
import { seriousViolations } from "./axe.js";
import { expect, signIn, signOut, test } from "./fixtures.js";
import { settled } from "./settle.js";

// A day long before any seeded deal, in a base no plan uses: the set reprices nothing other specs read.
const DATE = "2019-06-14";
const BASE = "CHF";

/** What the page's table shows, row by row: date, base and each code's rate as written. */
async function shownSets(page: Page) {
  const rows = page.getByTestId("rates-table").locator("tbody tr");
  const shown = [];
  for (const row of await rows.all()) {
    const rates: Record<string, string> = {};
    for (const item of await row.locator("[data-code]").all()) {
      rates[(await item.getAttribute("data-code"))!] = (await item.locator("code").textContent())!;
    }
    shown.push({
      date: await row.locator('[data-field="date"]').textContent(),
      base: await row.locator('[data-field="base"]').textContent(),
      rates,
    });
  }
  return shown;
}

test("an admin pastes a day's rates, sees them listed as the API holds them, and a refused code inline", async ({
  page,
  problems,
}) => {
  const { users } = state();
  await signIn(page, users.admin, "/");
  await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Exchange rates" }).click();
  await expect(page.getByRole("heading", { name: "Exchange rates", level: 1 })).toBeVisible();
  await settled(page);

  const form = page.getByRole("form", { name: "Enter a day's rates" });
  await form.getByLabel("Date").fill(DATE);
  await form.getByLabel("Base").fill(BASE);
  // An uploaded .csv fills the rates as written.
  const csv = "code,rate\nEUR,0.93\n";
  await form
    .locator('input[type="file"]')
    .setInputFiles({ name: "rates.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(form.getByLabel("Rates")).toHaveValue(csv);
  // A line the page cannot read is named by its number, and nothing is sent.
  await form.getByLabel("Rates").fill("code,rate\nEUR;0.9");
  await form.getByRole("button", { name: "Save rates" }).click();
  await expect(form.getByRole("alert")).toContainText('Line 2: write a code and a rate, such as "EUR,0.92".');

  await form.getByLabel("Rates").fill("code,rate\nEUR,0.9350\nUSD,1.1025");
  await form.getByRole("button", { name: "Save rates" }).click();
  await expect(form.getByRole("status")).toHaveText(`Saved the ${BASE} rates of ${DATE}.`);
  await settled(page);

  const listed = await asAdmin("GET", "/exchange-rates?per_page=25");
  const ours = listed.data.find((s: { date: string; base: string }) => s.date === DATE && s.base === BASE);
  expect(Object.keys(ours.rates).sort()).toEqual(["EUR", "USD"]);
  const expected = listed.data.map((s: { date: string; base: string; rates: Record<string, string> }) => ({
    date: s.date,
    base: s.base,
    rates: s.rates,
  }));
  await expect.poll(() => shownSets(page)).toEqual(expected);

  // A code equal to the base: the API's 422 is shown beside the form, and the set stays as it was.
  await form.getByLabel("Rates").fill(`EUR,0.94\n${BASE},1`);
  await form.getByRole("button", { name: "Save rates" }).click();
  await expect(form.getByTestId("rates-problems")).toContainText(`${BASE}: must not be the base ${BASE}`);
  expect(await seriousViolations(page)).toEqual([]);
  const after = await asAdmin("GET", `/exchange-rates/${DATE}?base=${BASE}`);
  expect(after.rates).toEqual(ours.rates);

  // Delete, after confirming: the row leaves the list and the API no longer has the set.
  await page.getByRole("button", { name: `Delete ${BASE} rates of ${DATE}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete rates" }).click();
  await expect(page.getByRole("button", { name: `Delete ${BASE} rates of ${DATE}` })).toHaveCount(0);
  const left = await asAdmin("GET", `/exchange-rates?date=${DATE}&base=${BASE}`);
  expect(left.data).toEqual([]);
  expect(problems).toEqual([]);
  await signOut(page);
});

test("a rep has no Exchange rates entry, and the address shows the not-allowed page", async ({ page, problems }) => {
  await signIn(page, state().users.rita, "/");
  await expect(page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Home" })).toBeVisible();
  await expect(
    page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Exchange rates" }),
  ).toHaveCount(0);
  await page.goto("/exchange-rates");
  await expect(page.getByRole("heading", { name: "You are not allowed to open this page" })).toBeVisible();
  expect(problems).toEqual([]);
});
