import type { Page } from "@playwright/test";
import { asAdmin, state } from "./api.js";
import { apiAs, expect, signIn, signOut, test } from "./fixtures.js";
import { invitedRep } from "./people.js";
import { settled } from "./settle.js";

// The SPIFFs page. Each SPIFF a test creates pays only a rep of its own (criteria.user_ids), so the
// seeded people's lines and statements, which other specs read, never change.

test.use({ locale: "en-US" });

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency, minimumFractionDigits: 2 }).format(amount);

/** The browser's calendar date (what the page calls today), "YYYY-MM-DD". */
const browserToday = (page: Page) =>
  page.evaluate(() => {
    const d = new Date();
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  });

const plusDays = (isoDate: string, days: number) =>
  new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

async function spiffNamed(name: string) {
  const all = await asAdmin("GET", "/spiffs?per_page=100");
  return all.data.find((s: any) => s.name === name);
}

test("an admin creates a SPIFF and ends it: the API agrees with each step", async ({ page, problems }) => {
  const { users } = state();
  const { user: rep } = await invitedRep("Spiffy Workbench");
  const name = `Workbench sprint ${Date.now()}`;
  await signIn(page, users.admin, "/spiffs");
  await settled(page);
  const today = await browserToday(page);
  const endsOn = plusDays(today, 30);

  await page.getByRole("button", { name: "New SPIFF" }).click();
  const form = page.getByRole("dialog", { name: "New SPIFF" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Starts on").fill(today);
  await form.getByLabel("Ends on").fill(endsOn);
  await form.getByLabel(/Amount per deal/).fill("250.50");
  await form.getByLabel(/Minimum ARR/).fill("12000");
  await form.getByRole("combobox", { name: "Deal types" }).click();
  await form.getByRole("option", { name: "Expansion" }).click();
  await form.getByRole("combobox", { name: "Users" }).fill("Spiffy");
  await form.getByRole("option", { name: rep.name }).click();
  await form.getByRole("button", { name: "Create SPIFF" }).click();
  await expect(form).toHaveCount(0);
  await expect(page.getByRole("status")).toContainText(`Saved ${name}.`);

  const created = await spiffNamed(name);
  expect(created).toMatchObject({
    name,
    currency: "USD",
    starts_on: today,
    ends_on: endsOn,
    criteria: { min_arr_amount: 12000, deal_types: ["expansion"], user_ids: [rep.id] },
    payout: { type: "flat", amount: 250.5 },
    active: true,
  });
  const row = page.locator(`tr[data-spiff-id="${created.id}"]`);
  await expect(row.locator('[data-col="payout"]')).toHaveText(`${money(250.5, "USD")} per deal`);
  await expect(row.locator('[data-col="criteria"]')).toContainText(`ARR at least ${money(12000, "USD")}`);
  await expect(row.locator('[data-col="criteria"]')).toContainText(`Only ${rep.name}`);
  await expect(row.locator('[data-col="status"]')).toHaveText("Running");

  await row.getByRole("button", { name: `End ${name}` }).click();
  const confirm = page.getByRole("dialog", { name: `End ${name} today?` });
  await confirm.getByRole("button", { name: "End it today" }).click();
  await expect(confirm).toHaveCount(0);
  const ended = await asAdmin("GET", `/spiffs/${created.id}`);
  // Ending moves the window's last day to today and keeps the SPIFF active (its earned lines stay).
  expect(ended).toMatchObject({ ends_on: today, starts_on: today, active: true });
  expect(ended.updated_at > created.updated_at).toBe(true);
  await expect(row.getByRole("button", { name: `End ${name}` })).toHaveCount(0);
  expect(problems).toEqual([]);
});

test("editing a SPIFF: errors show on their fields in words and change nothing; a fix saves", async ({
  page,
  problems,
}) => {
  const { users } = state();
  const { user: rep } = await invitedRep("Spiffy Editor");
  const base = await asAdmin("POST", "/spiffs", {
    name: `Workbench edit ${Date.now()}`,
    starts_on: "2026-01-01",
    ends_on: "2026-12-31",
    criteria: { user_ids: [rep.id] },
    payout: { type: "flat", amount: 100 },
  });
  await signIn(page, users.admin, "/spiffs");
  await settled(page);
  await page.getByRole("button", { name: `Edit ${base.name}` }).click();
  const form = page.getByRole("dialog", { name: `Edit ${base.name}` });
  // Found by the form before sending.
  await form.getByLabel("Name").fill(" ");
  await form.getByLabel("Ends on").fill("2025-12-31");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByText("Give the SPIFF a name.")).toBeVisible();
  await expect(form.getByText("Pick an end date on or after the start (Jan 1, 2026).")).toBeVisible();
  // Refused by the API (a well-formed code no country uses), said in words on its field.
  await form.getByLabel("Name").fill(base.name);
  await form.getByLabel("Ends on").fill("2026-12-31");
  await form.getByLabel("Currency").fill("XYZ");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByText("XYZ is not a currency code in use: give one such as USD or EUR.")).toBeVisible();
  await expect(form.getByText(/must be|ISO 4217/)).toHaveCount(0);
  const { recalculation_job_id: _job, ...stored } = base;
  expect(await asAdmin("GET", `/spiffs/${base.id}`)).toEqual(stored);
  await form.getByLabel("Currency").fill("USD");

  await form.getByLabel("Ends on").fill("2026-06-30");
  await form.getByText("Rate of credit").click();
  await form.getByLabel("Rate (a decimal)").fill("0.015");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form).toHaveCount(0);
  const saved = await asAdmin("GET", `/spiffs/${base.id}`);
  expect(saved).toMatchObject({
    ends_on: "2026-06-30",
    payout: { type: "rate", rate: 0.015 },
    criteria: { user_ids: [rep.id] },
  });
  await expect(page.locator(`tr[data-spiff-id="${base.id}"] [data-col="payout"]`)).toHaveText("1.5% of credit");
  expect(problems).toEqual([]);
});

test("finance reads the SPIFFs the API lists, without actions; a rep gets the not-allowed page", async ({
  page,
  problems,
}) => {
  const { users } = state();
  const finance = await apiAs(users.finance);
  await signIn(page, users.finance, "/spiffs");
  await settled(page);
  await page.getByRole("combobox", { name: "Status" }).click();
  await page.getByRole("option", { name: "Active", exact: true }).click();
  await settled(page);
  const expected = await finance("GET", "/spiffs?active=true&per_page=25");
  expect(expected.body.data.length).toBeGreaterThan(0); // the seeded SPIFF at least
  const rows = page.getByRole("table", { name: "SPIFFs" }).locator("tbody tr");
  await expect(rows).toHaveCount(expected.body.data.length);
  for (const [i, spiff] of expected.body.data.entries()) {
    await expect(rows.nth(i)).toHaveAttribute("data-spiff-id", spiff.id);
    const payout =
      spiff.payout.type === "flat" ? `${money(spiff.payout.amount, spiff.currency)} per deal` : /of credit$/;
    await expect(rows.nth(i).locator('[data-col="payout"]')).toHaveText(payout);
  }
  await expect(page.getByRole("button", { name: "New SPIFF" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^(Edit|End) / })).toHaveCount(0);
  await signOut(page);

  await signIn(page, users.rita, "/spiffs");
  await expect(page.getByRole("heading", { name: "You are not allowed to open this page" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "SPIFFs" })).toHaveCount(0);
  expect(problems).toEqual([]);
});
