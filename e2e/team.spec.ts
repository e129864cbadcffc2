import { state } from "./api.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";

test.use({ locale: "en-US" });

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency, minimumFractionDigits: 2 }).format(amount);
const percent = (ratio: number) =>
  new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 2 }).format(ratio);

test("a manager's team is their whole subtree, each row the API's numbers to the cent", async ({ page, problems }) => {
  const { users, period } = state();
  const director = await apiAs(users.director);
  await signIn(page, users.director, "/team");
  await settled(page);
  const table = page.getByRole("table", { name: "Team" });
  const rows = table.locator("tbody tr");

  // The rows are the people the API lets the director see (other specs add reps under lead), which
  // include two levels down (rita and ravi under lead) and lead himself, never someone outside the tree.
  const visible = await director("GET", "/users?per_page=100");
  const below = visible.body.data.filter((u: any) => u.id !== users.director.id).map((u: any) => u.id);
  expect(below).toEqual(expect.arrayContaining([users.lead.id, users.rita.id, users.ravi.id]));
  expect(below).not.toContain(users.paula.id);
  await expect(rows).toHaveCount(below.length);
  for (const name of [users.lead.name, users.rita.name, users.ravi.name]) {
    await expect(table.getByRole("link", { name })).toBeVisible();
  }
  await expect(table.getByText(users.paula.name)).toHaveCount(0);

  for (const person of [users.lead, users.rita, users.ravi]) {
    const { status, body } = await director("GET", `/users/${person.id}/statement?period=${period}`);
    expect(status).toBe(200);
    const row = table.locator(`tr[data-user-id="${person.id}"]`);
    const currency = body.plans[0]?.currency ?? "USD";
    await expect(row.locator('[data-col="pending"]')).toHaveText(money(body.by_status.pending, currency));
    await expect(row.locator('[data-col="approved"]')).toHaveText(money(body.by_status.approved, currency));
    await expect(row.locator('[data-col="paid"]')).toHaveText(money(body.by_status.paid, currency));
    const deals = new Set(body.lines.filter((l: any) => l.kind === "plan").map((l: any) => l.deal_id));
    await expect(row.locator('[data-col="deals"]')).toHaveText(String(deals.size));
    const manager = person.id === users.lead.id ? users.director.name : users.lead.name;
    await expect(row).toContainText(manager);
    for (const plan of body.plans) {
      const cell = row.locator(`[data-plan-id="${plan.plan_id}"]`);
      await expect(cell).toContainText(percent(plan.attainment_ratio));
      await expect(cell).toContainText(
        `${money(plan.attainment, plan.currency)} of ${money(plan.quota, plan.currency)}`,
      );
    }
  }
  // Rita's quarter has booked deals: the comparison above is not of empty rows.
  const rita = await director("GET", `/users/${users.rita.id}/statement?period=${period}`);
  expect(rita.body.plans.length).toBeGreaterThan(0);

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
