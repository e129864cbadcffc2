import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { state } from "./api.js";
import { openPage, PAGES } from "./console-pages.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";

// Every page: its own title in the browser's tab, one h1, a skip link first, and nothing wider than a
// 390 px phone (the page itself never scrolls sideways; a table's own region may, for its extra columns).

const SITE = " · Commission Tracking";

/** The elements that reach past the window's right edge (outside a scrolling region): what to fix. */
const WIDER_THAN_THE_PAGE = `[...document.querySelectorAll("body *")]
  .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
  .filter((el) => !el.closest("[role=region]") || el.matches("[role=region]"))
  .slice(0, 8)
  .map((el) => el.tagName.toLowerCase() + (el.className && typeof el.className === "string" ? "." + el.className.split(" ").slice(0, 2).join(".") : "") + " " + Math.round(el.getBoundingClientRect().right))
  .join(", ")`;
// Each page's title, kept across the file's tests (a failed test restarts the worker): the run's
// output folder is emptied when a run starts.
const TITLES = new URL("../.e2e-results/page-titles.json", import.meta.url);
const titles = (): Record<string, string> => {
  try {
    return JSON.parse(readFileSync(TITLES, "utf8"));
  } catch {
    return {};
  }
};

for (const target of PAGES) {
  test(`${target.name}: a title of its own, one h1, and no sideways scrolling at 390 px`, async ({
    page,
    problems,
  }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await openPage(page, target);
    await expect(page.locator("h1")).toHaveCount(1);
    await expect(page.locator("h1")).toBeVisible();
    const title = await page.title();
    expect(title.endsWith(SITE), title).toBe(true);
    mkdirSync(new URL(".", TITLES), { recursive: true });
    writeFileSync(TITLES, JSON.stringify({ ...titles(), [target.name]: title }));
    const scrollWidth = Number(await page.evaluate("document.documentElement.scrollWidth"));
    const clientWidth = Number(await page.evaluate("document.documentElement.clientWidth"));
    const widest = scrollWidth > clientWidth ? await page.evaluate(WIDER_THAN_THE_PAGE) : "";
    expect(
      scrollWidth,
      `${target.name}: the page is ${scrollWidth} px wide in ${clientWidth}: ${widest}`,
    ).toBeLessThanOrEqual(clientWidth);
    if (target.who) {
      if (target.onPage) {
        // What the page opened (a form, a drawer) holds the focus: start again from the top of the page,
        // at its own address (a drawer open is in the address: a reload would open it again).
        await page.goto(await target.path());
        await settled(page);
      }
      // The first thing a keyboard reaches skips the header and the menu.
      await page.keyboard.press("Tab");
      const skip = page.getByRole("link", { name: "Skip to content" });
      await expect(skip).toBeFocused();
      await skip.press("Enter");
      await expect(page.locator("main")).toBeFocused();
    }
    expect(problems).toEqual([]);
  });
}

test("every page's title is its own (the same page for another role excepted)", () => {
  // "plan (finance)" is the plan page again.
  const distinct = Object.entries(titles()).filter(([name]) => !name.includes("("));
  expect(distinct.length).toBe(PAGES.filter((p) => !p.name.includes("(")).length);
  const seen = new Map<string, string>();
  for (const [name, title] of distinct) {
    expect(seen.get(title), `${name} and ${seen.get(title)} are both "${title}"`).toBeUndefined();
    seen.set(title, name);
  }
});

test("Team at 390 px: attainment and earnings on screen without scrolling, the API's numbers", async ({
  page,
  problems,
}) => {
  const { users, period } = state();
  const director = await apiAs(users.director);
  await page.setViewportSize({ width: 390, height: 800 });
  await signIn(page, users.director, "/team");
  await settled(page);
  const region = page.getByRole("region", { name: "Team" });
  const scroll = await region.evaluate((el) => [el.scrollWidth, el.clientWidth]);
  expect(scroll[0], "the table scrolls sideways").toBeLessThanOrEqual(scroll[1]!);
  const { body } = await director("GET", `/users/${users.rita.id}/statement?period=${period}`);
  const row = page.locator(`tr[data-user-id="${users.rita.id}"]`);
  const currency = body.plans[0]?.currency ?? "USD";
  const money = (amount: number) =>
    page.evaluate(
      ([value, code]) =>
        new Intl.NumberFormat(undefined, { style: "currency", currency: code, minimumFractionDigits: 2 }).format(value),
      [amount, currency] as [number, string],
    );
  for (const status of ["pending", "approved", "paid"] as const) {
    const cell = row.locator(`[data-earned="${status}"]`);
    await expect(cell).toContainText(await money(body.by_status[status]));
    const box = (await cell.boundingBox())!;
    expect(box.x + box.width, status).toBeLessThanOrEqual(390);
  }
  const attainment = row.locator('[data-col="attainment"]');
  await expect(attainment).toBeVisible();
  const box = (await attainment.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  // The yearly rep's row names his period under his name, and his year's total heads his earnings.
  const { yearly } = state().planPeriods;
  // Today as the browser's zone has it: the date the page asked for.
  const on = await page.evaluate(() => {
    const now = new Date();
    const pad = (n: number) => String(n).padStart(2, "0");
    return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  });
  const team = await director("GET", `/users/statements?on=${on}&per_page=100`);
  const yearRow = team.body.data.find((r: any) => r.user.id === yearly.id);
  const yearlyRow = page.locator(`tr[data-user-id="${yearly.id}"]`);
  await expect(yearlyRow.getByTestId("period-narrow")).toBeVisible();
  await expect(yearlyRow.getByTestId("period-narrow")).toHaveText(`${yearRow.period} year`);
  const total = yearlyRow.locator('[data-earned="total"]');
  await expect(total).toContainText(await money(yearRow.totals.total));
  const totalBox = (await total.boundingBox())!;
  expect(totalBox.x + totalBox.width).toBeLessThanOrEqual(390);
  expect(problems).toEqual([]);
});
