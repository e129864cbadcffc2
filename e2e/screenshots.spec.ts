import type { Page } from "@playwright/test";
import { state } from "./api.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";
import { approvedDeal, ownPlan, ownRep } from "./workbench-data.js";

/** The workbench pages shown at work: an open dispute being resolved, a payout selection. */
async function disputeBeingResolved(page: Page): Promise<void> {
  const card = page.locator('[data-testid="queue-dispute"]', { hasText: "Northwind expansion" }).first();
  await card.getByRole("button", { name: /^Show lines/ }).click();
  await card.getByRole("button", { name: "Resolve" }).click();
  await card.getByRole("radio", { name: "Partially approved" }).check();
  await card.getByRole("textbox", { name: "Accepted total commission" }).fill("1450");
  await card.getByRole("textbox", { name: "Note" }).fill("Expansion rate agreed with RevOps; discount excluded.");
  await card.scrollIntoViewIfNeeded();
}

async function payoutSelection(page: Page): Promise<void> {
  const boxes = page.getByTestId("deal-to-pay").getByRole("checkbox");
  for (let i = 0; i < Math.min(2, await boxes.count()); i++) await boxes.nth(i).check();
  // Checking scrolled the page: the picture starts at its title, the groups, then the selection.
  await page.evaluate("window.scrollTo(0, 0)");
}

/** A rep of the screenshot's own with a disputed deal, so the queue has something to show. */
async function openDispute(): Promise<void> {
  const rep = await ownRep("Sam Screenshot");
  await ownPlan("Screenshot plan", [rep]);
  const deal = await approvedDeal(rep, "Northwind expansion", 13250);
  const answer = await (await apiAs(rep))("POST", `/deals/${deal.id}/disputes`, {
    reason: "wrong_deal_type",
    description: "Booked as new business; it is an expansion of the 2025 contract at the expansion rate.",
    expected_amount: 1590,
  });
  expect(answer.status).toBe(201);
}

// The README's pictures of the console, made by the e2e run at 1280×800 once each page shows its data.
const SHOTS = [
  { file: "console-home.png", who: "rita", path: () => "/" },
  { file: "console-deal.png", who: "rita", path: () => `/deals/${state().deals.ritaApproved}` },
  { file: "console-statement.png", who: "rita", path: () => `/statements/${state().period}` },
  { file: "console-team.png", who: "director", path: () => "/team" },
  { file: "console-plans.png", who: "admin", path: () => "/plans" },
  { file: "console-plan.png", who: "admin", path: () => `/plans/${state().planId}` },
  { file: "console-people.png", who: "admin", path: () => "/people" },
  { file: "console-spiffs.png", who: "admin", path: () => "/spiffs" },
  { file: "console-audit.png", who: "admin", path: () => "/audit" },
  { file: "console-request-log.png", who: "admin", path: () => "/request-log" },
  { file: "console-jobs.png", who: "admin", path: () => "/jobs" },
  {
    file: "console-dispute-queue.png",
    who: "admin",
    path: () => "/dispute-queue",
    before: openDispute,
    onPage: disputeBeingResolved,
  },
  { file: "console-payouts.png", who: "finance", path: () => "/payouts", onPage: payoutSelection },
] as const;

for (const shot of SHOTS) {
  test(`screenshot ${shot.file}`, async ({ page, problems }) => {
    if ("before" in shot) await shot.before();
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, state().users[shot.who], shot.path());
    await settled(page);
    if ("onPage" in shot) await shot.onPage(page);
    await page.screenshot({ path: new URL(`../docs/${shot.file}`, import.meta.url).pathname });
    expect(problems).toEqual([]);
  });
}

// The impact of a change to the seed's plan before it is saved: previewing writes nothing (API.md §12).
test("screenshot console-plan-impact.png", async ({ page, problems }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, state().users.admin, `/plans/${state().planId}`);
  await settled(page);
  await page.getByRole("button", { name: "Edit terms" }).click();
  await page.getByRole("textbox", { name: "Tier 1 rate" }).fill("0.09");
  await page.getByRole("button", { name: "Preview impact" }).click();
  await settled(page);
  // The impact at the top of the picture, under the frame's header.
  await page
    .getByRole("heading", { name: "Impact of this change" })
    .evaluate((heading) => heading.ownerDocument.defaultView?.scrollBy(0, heading.getBoundingClientRect().top - 72));
  await page.mouse.move(0, 0);
  await page.screenshot({ path: new URL("../docs/console-plan-impact.png", import.meta.url).pathname });
  expect(problems).toEqual([]);
});
