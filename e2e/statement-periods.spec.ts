import type { Page } from "@playwright/test";
import { type SeededUser, state } from "./api.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";

// The menu's Statement link opens the person's own plan period, the period picker lists the periods the
// API lists for them, and a statement's lines name their deals: every figure compared with the API.

test.use({ locale: "en-US" });
const money = (amount: number, currency = "USD") =>
  new Intl.NumberFormat("en-US", { style: "currency", currency, minimumFractionDigits: 2 }).format(amount);

type Api = Awaited<ReturnType<typeof apiAs>>;

/** Today's plan period of a kind, by the browser's calendar (the console's): "2026", "2026-11". */
async function todaysPeriod(page: Page, kind: "year" | "month"): Promise<string> {
  const [year, month] = (await page.evaluate(
    "(() => { const d = new Date(); return [d.getFullYear(), d.getMonth() + 1]; })()",
  )) as number[];
  return kind === "year" ? String(year) : `${year}-${String(month).padStart(2, "0")}`;
}

async function periodsOf(api: Api, user: SeededUser): Promise<any[]> {
  const res = await api<any>("GET", `/users/${user.id}/periods?per_page=100`);
  expect(res.status).toBe(200);
  expect(res.body.meta.total).toBe(res.body.data.length);
  return res.body.data;
}

async function statementOf(api: Api, user: SeededUser, period: string) {
  const res = await api<any>("GET", `/users/${user.id}/statement?period=${period}`);
  expect(res.status).toBe(200);
  return res.body;
}

async function expectTotal(page: Page, statement: any) {
  await expect(page.getByRole("heading", { level: 1, name: `Statement ${statement.period}` })).toBeVisible();
  const currency = statement.plans[0]?.currency ?? "USD";
  await expect(page.getByTestId("totals-by-kind").locator("[data-key=total] td")).toHaveText(
    money(statement.totals.total, currency),
  );
}

for (const [who, kind] of [
  ["yearly", "year"],
  ["monthly", "month"],
] as const) {
  test(`a ${kind}ly rep's Statement link opens their plan's ${kind}, its total the API's`, async ({
    page,
    problems,
  }) => {
    const user = state().users[who];
    const api = await apiAs(user);
    await signIn(page, user, "/");
    const period = await todaysPeriod(page, kind);
    const periods = await periodsOf(api, user);
    expect(periods.filter((p) => p.current).map((p) => p.period)).toEqual([period]);

    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Statement" }).click();
    await expect(page).toHaveURL(new RegExp(`/statements/${period}$`));
    const statement = await statementOf(api, user, period);
    expect(statement.lines.length).toBeGreaterThan(0);
    expect(statement.totals.total).toBe(periods.find((p) => p.period === period).total);
    await expectTotal(page, statement);
    // The redirect replaced /statements: Back returns to home, not to the redirect.
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
    expect(problems).toEqual([]);
  });
}

test("the period picker lists exactly the API's periods, and each opens with the API's total", async ({
  page,
  problems,
}) => {
  const user = state().users.monthly;
  const api = await apiAs(user);
  const periods = await periodsOf(api, user);
  expect(periods.length).toBeGreaterThan(2);
  await signIn(page, user, "/statements");
  await settled(page);
  const picker = page.getByRole("combobox", { name: "Period" });
  await picker.click();
  const options = page.getByRole("option");
  await expect(options).toHaveCount(periods.length);
  const texts = await options.allTextContents();
  expect(texts.map((t) => t.split(" ")[0])).toEqual(periods.map((p) => p.period));
  for (const [i, p] of periods.entries()) {
    expect(texts[i]).toContain(p.lines === 1 ? "1 line" : p.lines === 0 ? "no lines" : `${p.lines} lines`);
    expect(texts[i]!.includes("(current)")).toBe(p.current);
  }
  // An earlier period with lines, chosen from the picker: its statement, never $0.
  const earlier = periods.find((p) => !p.current && p.lines > 0);
  await page.getByRole("option", { name: new RegExp(`^${earlier.period} `) }).click();
  await expect(page).toHaveURL(new RegExp(`/statements/${earlier.period}$`));
  const statement = await statementOf(api, user, earlier.period);
  expect(statement.totals.total).toBe(earlier.total);
  expect(statement.totals.total).not.toBe(0);
  await expectTotal(page, statement);
  await expect(picker).toHaveValue(new RegExp(`^${earlier.period} `));
  // ← → step through months.
  await expect(page.getByRole("link", { name: /^← \d{4}-\d{2}$/ })).toBeVisible();
  expect(problems).toEqual([]);
});

test("a statement's lines name their deals, each amount the API's line", async ({ page, problems }) => {
  const user = state().users.yearly;
  const api = await apiAs(user);
  await signIn(page, user, "/statements");
  await settled(page);
  const period = page.url().split("/statements/")[1]!;
  const statement = await statementOf(api, user, period);
  expect(statement.lines.length).toBeGreaterThan(0);
  const rows = page.getByTestId("statement-lines").locator("tbody tr");
  await expect(rows).toHaveCount(statement.lines.length);
  for (const line of statement.lines) {
    const row = page.locator(`[data-testid="statement-lines"] tr[data-line-id="${line.id}"]`);
    await expect(row.getByRole("link", { name: line.deal.opportunity_name })).toHaveAttribute(
      "href",
      `/deals/${line.deal_id}`,
    );
    await expect(row.locator('[data-col="amount"]')).toHaveText(money(line.amount, line.deal.currency));
    await expect(row.locator('[data-col="arr"]')).toHaveText(money(line.deal.arr_amount, line.deal.currency));
    await expect(row).not.toContainText(line.deal_id);
  }
  expect(problems).toEqual([]);
});

test("a capped plan's statement says how much of the cap its lines use", async ({ page, problems }) => {
  const user = state().users.capped;
  const api = await apiAs(user);
  await signIn(page, user, "/statements");
  await settled(page);
  const period = page.url().split("/statements/")[1]!;
  const plan = (await statementOf(api, user, period)).plans[0];
  expect(plan.cap_reached).toBe(true);
  await expect(page.locator(`[data-plan-id="${plan.plan_id}"] [data-col="cap"]`)).toHaveText(
    `${money(plan.earned)} of ${money(plan.cap_per_period)} (reached)`,
  );
  expect(problems).toEqual([]);
});
