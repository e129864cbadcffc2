import type { Page } from "@playwright/test";
import { asAdmin, state } from "./api.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";
import { ownRep } from "./workbench-data.js";

// Text a person reads: money to the cent (the exact value on hover), deal types and history in words, a
// SPIFF's reason as a sentence, and "no plan in force" said as such. Each compared with the API's answer.

/** Money as the page's own Intl writes it (the browser's locale), with at most `places` decimals. */
const formatted = (page: Page, amount: number | string, currency: string, places = 2) =>
  page.evaluate(
    ([value, code, max]) =>
      new Intl.NumberFormat(undefined, {
        style: "currency",
        currency: code,
        minimumFractionDigits: 2,
        maximumFractionDigits: max,
      }).format(value),
    [Number(amount), currency, places] as [number, string, number],
  );

test("a deal's page: money to the cent with the exact value on hover, its type, SPIFF and history in words", async ({
  page,
  problems,
}) => {
  const { period } = state();
  const rep = await ownRep("Hana Human");
  // 8.25 % of 41,234.57 is 3,401.852025: an unrounded amount with more places than cents.
  const plan = await asAdmin("POST", "/comp-plans", {
    name: `Human text plan ${Date.now()}`,
    period: "quarter",
    currency: "USD",
    base_rate: 0.0825,
    effective_from: "2020-01-01",
  });
  await asAdmin("POST", `/comp-plans/${plan.id}/assignments`, { user_id: rep.id, effective_from: "2020-01-01" });
  const created = await asAdmin("POST", "/deals", {
    opportunity_name: `Human Text Ltd upsell ${Date.now()}`,
    arr_amount: 41234.57,
    deal_type: "expansion",
    close_date: new Date().toISOString().slice(0, 10),
    owner_id: rep.id,
  });
  await asAdmin("POST", `/deals/${created.id}/approve`);
  const asRep = await apiAs(rep);
  const { body: deal } = await asRep("GET", `/deals/${created.id}`);
  const { body: history } = await asRep("GET", `/deals/${created.id}/history?per_page=10`);

  await signIn(page, rep, `/deals/${deal.id}`);
  await settled(page);
  await expect(page.getByRole("heading", { level: 1, name: deal.opportunity_name })).toBeVisible();
  await expect(page).toHaveTitle(/ · Commission Tracking$/);

  // The deal type in words, never the API's enum.
  expect(deal.deal_type).toBe("expansion");
  await expect(page.getByText("Expansion", { exact: true })).toBeVisible();
  // (What a person reads: a history row's raw before/after, folded away, is the API's record as it is.)
  expect(await page.locator("main").innerText()).not.toMatch(/\bexpansion\b/);

  // The plan line: its unrounded amount to the cent, the engine's exact value as the tooltip.
  const planLine = deal.commissions.find((l: any) => l.kind === "plan");
  const unrounded = planLine.explanation.unrounded as string;
  expect(unrounded.split(".")[1]!.length).toBeGreaterThan(2);
  const card = page.locator(`[data-line-id="${planLine.id}"]`);
  const row = card.getByRole("row", { name: /^Unrounded/ });
  await expect(row).toContainText(await formatted(page, unrounded, deal.currency));
  await expect(row.locator("[title]")).toHaveAttribute("title", await formatted(page, unrounded, deal.currency, 6));
  // Nowhere on the page an amount with more than two places.
  expect(await page.locator("main").innerText()).not.toMatch(/\$[\d,]+\.\d{3,}/);

  // The seed's SPIFF pays on deals of 40,000 or more this quarter: why, in a sentence.
  const spiffLine = deal.commissions.find((l: any) => l.kind === "spiff");
  expect(spiffLine, `a SPIFF line in ${period}`).toBeTruthy();
  const spiffCard = page.locator(`[data-line-id="${spiffLine.id}"]`);
  const why = spiffCard.getByRole("row", { name: /^Why it pays/ });
  await expect(why).toContainText("It pays because");
  await expect(why).toContainText(`its ARR of ${await formatted(page, deal.arr_amount, deal.currency)} is at least`);
  for (const criterion of spiffLine.explanation.criteria_met as string[]) {
    await expect(why).not.toContainText(criterion);
  }
  await expect(why).not.toContainText(/arr_amount|close_date|deal_type/);

  // The history as sentences: "Approved by …", who as the API names them.
  const approval = history.data.find((e: any) => e.action === "deal.approve");
  expect(approval.actor.type).toBe("api_key");
  const events = page.getByTestId("history-event");
  await expect(events.filter({ hasText: `Approved by the API key “${approval.actor.name}”` })).toHaveCount(1);
  await expect(page.getByTestId("deal-history")).not.toContainText("deal.approve");
  expect(problems).toEqual([]);
});

test("a person with no plan in force is told so, for the period the API answers", async ({ page, problems }) => {
  const rep = await ownRep("Nolan Noplan");
  const asRep = await apiAs(rep);
  await signIn(page, rep, "/");
  await settled(page);
  // The API's statement of this quarter (the browser's calendar, as the home page asks): no plan, no line.
  const period = String(
    await page.evaluate(
      "(() => { const d = new Date(); return d.getFullYear() + '-Q' + (Math.floor(d.getMonth() / 3) + 1); })()",
    ),
  );
  const { body } = await asRep("GET", `/users/${rep.id}/statement?period=${period}`);
  expect(body.plans).toEqual([]);
  expect(body.lines).toEqual([]);
  await expect(page.getByRole("heading", { name: `You have no plan in force for ${body.period}` })).toBeVisible();
  await expect(page.getByText("Ask your admin")).toBeVisible();
  await expect(page.getByText("Nothing earned")).toHaveCount(0);
  expect(problems).toEqual([]);
});
