import type { Page } from "@playwright/test";
import { asAdmin, state } from "./api.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";
import { type ApiDeal, approvedDeal, cents, ownPlan, ownRep } from "./workbench-data.js";

/** How the page formats money, asked of the page's own Intl (the browser's locale). */
const formatted = (page: Page, amount: number, currency: string) =>
  page.evaluate(
    ([value, code]) =>
      new Intl.NumberFormat(undefined, { style: "currency", currency: code, minimumFractionDigits: 2 }).format(value),
    [amount, currency] as [number, string],
  );

/** A person's own non-void lines on a deal, in exact cents: what a rep's dispute is about (API.md §20 b). */
const ownTotal = (deal: ApiDeal, userId: string) =>
  deal.commissions
    .filter((l) => l.user_id === userId && l.status !== "void")
    .reduce((sum, l) => sum + cents(l.amount), 0) / 100;

interface ApiDispute {
  id: string;
  status: string;
  outcome: string | null;
  resolved_amount: number | null;
  resolution_note: string | null;
}

test("the admin resolves a rep's dispute as partially approved; the adjustment shown first is the one the deal gets", async ({
  page,
  problems,
}) => {
  const rep = await ownRep("Quinn Queue");
  await ownPlan("Dispute queue e2e plan", [rep]);
  const deal = await approvedDeal(rep, "Queue Corp renewal uplift", 12345.67);
  const asRep = await apiAs(rep);
  const opened = await asRep<ApiDispute>("POST", `/deals/${deal.id}/disputes`, {
    reason: "wrong_amount",
    description: "The uplift was agreed at a higher rate.",
    expected_amount: 1500,
  });
  expect(opened.status).toBe(201);
  const dispute = opened.body;

  await signIn(page, state().users.admin, "/dispute-queue");
  await expect(page.getByRole("heading", { name: "Dispute queue" })).toBeVisible();
  const card = page.locator(`[data-testid="queue-dispute"][data-dispute-id="${dispute.id}"]`);
  await expect(card.getByRole("link", { name: deal.opportunity_name })).toHaveAttribute("href", `/deals/${deal.id}`);
  await expect(card).toContainText(rep.name);
  await expect(card).toContainText("The uplift was agreed at a higher rate.");
  await expect(card.getByTestId("queue-expected")).toHaveText(await formatted(page, 1500, deal.currency));
  const disputed = await asAdmin<ApiDeal>("GET", `/deals/${deal.id}`);
  expect(disputed.status).toBe("disputed");
  // A rep's dispute is about their own lines (API.md §20 b): their total, which here is the deal's (no split).
  const repTotal = ownTotal(disputed, rep.id);
  await expect(card.getByTestId("queue-scope")).toHaveText(`${rep.name}'s own lines`);
  await expect(card.getByTestId("queue-current")).toHaveText(await formatted(page, repTotal, deal.currency));

  // The deal's current lines, one click away.
  await card.getByRole("button", { name: `Show lines (${disputed.commissions.length})` }).click();
  const shownLines = card.getByTestId("deal-line-amount");
  await expect(shownLines).toHaveCount(disputed.commissions.length);
  for (const [i, line] of disputed.commissions.entries()) {
    await expect(shownLines.nth(i)).toHaveText(await formatted(page, line.amount, deal.currency));
  }

  await card.getByRole("button", { name: "Resolve" }).click();
  const form = card.getByRole("form", { name: "Resolve the dispute" });
  await form.getByRole("radio", { name: "Partially approved" }).check();
  await expect(form.getByTestId("adjustment-preview")).toHaveText(
    `No adjustment: ${rep.name}'s total stays ${await formatted(page, repTotal, deal.currency)}.`,
  );
  // Without an amount the server refuses, and says so on the amount field; nothing changes.
  await form.getByRole("button", { name: "Resolve" }).click();
  const amountField = form.getByRole("textbox", { name: "Accepted total commission" });
  await expect(amountField).toHaveAttribute("aria-invalid", "true");
  await expect(form).toContainText("is required when outcome is partially_approved");
  expect((await asAdmin<ApiDispute>("GET", `/disputes/${dispute.id}`)).status).toBe("open");

  const accepted = 1400.05;
  await amountField.fill(String(accepted));
  const adjustment = (cents(accepted) - cents(repTotal)) / 100;
  expect(adjustment).not.toBe(0);
  const preview = `Adjustment to be written for ${rep.name}: ${adjustment > 0 ? "+" : ""}${await formatted(
    page,
    adjustment,
    deal.currency,
  )} (new total ${await formatted(page, accepted, deal.currency)} − current total ${await formatted(
    page,
    repTotal,
    deal.currency,
  )}).`;
  await expect(form.getByTestId("adjustment-preview")).toHaveText(preview);
  await form.getByRole("textbox", { name: "Note" }).fill("Agreed uplift, less the discount.");
  await form.getByRole("button", { name: "Resolve" }).click();
  await expect(card).toHaveCount(0);

  // The API stored what the preview said: the resolution, and one adjustment line of exactly that amount.
  const resolved = await asAdmin<ApiDispute>("GET", `/disputes/${dispute.id}`);
  expect(resolved).toMatchObject({
    status: "resolved",
    outcome: "partially_approved",
    resolved_amount: accepted,
    resolution_note: "Agreed uplift, less the discount.",
  });
  const after = await asAdmin<ApiDeal>("GET", `/deals/${deal.id}`);
  expect(after.status).toBe("approved");
  expect(ownTotal(after, rep.id)).toBe(accepted);
  const adjustments = after.commissions.filter((l) => l.kind === "adjustment");
  expect(adjustments.map((l) => [l.user_id, l.amount])).toEqual([[rep.id, adjustment]]);

  // Resolved disputes are a filter away.
  // (Mantine's segmented control draws a label over its hidden radio input: the label is what is clicked.)
  await page
    .locator("label")
    .filter({ hasText: /^Resolved$/ })
    .click();
  await expect(page.getByRole("radio", { name: "Resolved" })).toBeChecked();
  const resolvedCard = page.locator(`[data-testid="queue-dispute"][data-dispute-id="${dispute.id}"]`);
  await expect(resolvedCard.getByTestId("queue-resolved")).toHaveText(await formatted(page, accepted, deal.currency));
  await expect(resolvedCard.getByRole("button", { name: "Resolve" })).toHaveCount(0);

  // The deal page shows the adjustment line with the amount the API stores, and the new total.
  await resolvedCard.getByRole("link", { name: deal.opportunity_name }).click();
  await expect(page).toHaveURL(new RegExp(`/deals/${deal.id}$`));
  const line = page.locator(`[data-testid="commission-line"][data-line-id="${adjustments[0]!.id}"]`);
  await expect(line).toHaveAttribute("data-kind", "adjustment");
  await expect(line.getByTestId("line-amount")).toHaveText(
    await formatted(page, adjustments[0]!.amount, deal.currency),
  );
  await expect(page.getByTestId("deal-total")).toHaveText(await formatted(page, after.total_commission, deal.currency));
  expect(problems).toEqual([]);
});

test("a denied dispute writes no adjustment: the preview says so and the deal keeps its total", async ({
  page,
  problems,
}) => {
  const rep = await ownRep("Dana Denied");
  await ownPlan("Dispute queue e2e plan (denied)", [rep]);
  const deal = await approvedDeal(rep, "Queue Corp denied claim", 8000);
  const opened = await (await apiAs(rep))<ApiDispute>("POST", `/deals/${deal.id}/disputes`, {
    reason: "missing_tier",
    expected_amount: 900,
  });
  expect(opened.status).toBe(201);

  await signIn(page, state().users.admin, "/dispute-queue");
  const card = page.locator(`[data-testid="queue-dispute"][data-dispute-id="${opened.body.id}"]`);
  await card.getByRole("button", { name: "Resolve" }).click();
  const form = card.getByRole("form", { name: "Resolve the dispute" });
  await form.getByRole("radio", { name: "Approved", exact: true }).check();
  // Approved without an amount accepts the rep's expected total.
  const toExpected = (cents(900) - cents(ownTotal(deal, rep.id))) / 100;
  await expect(form.getByTestId("adjustment-preview")).toContainText(
    `+${await formatted(page, toExpected, deal.currency)}`,
  );
  await form.getByRole("radio", { name: "Denied" }).check();
  await expect(form.getByRole("textbox", { name: "Accepted total commission" })).toHaveCount(0);
  await expect(form.getByTestId("adjustment-preview")).toHaveText(
    `No adjustment: ${rep.name}'s total stays ${await formatted(page, ownTotal(deal, rep.id), deal.currency)}.`,
  );
  await form.getByRole("button", { name: "Resolve" }).click();
  await expect(card).toHaveCount(0);
  const after = await asAdmin<ApiDeal>("GET", `/deals/${deal.id}`);
  expect([after.status, after.total_commission]).toEqual(["approved", deal.total_commission]);
  expect(after.commissions.filter((l) => l.kind === "adjustment")).toEqual([]);
  expect((await asAdmin<ApiDispute>("GET", `/disputes/${opened.body.id}`)).outcome).toBe("denied");
  expect(problems).toEqual([]);
});

test("a rep gets the 'not allowed' page on /dispute-queue and has no such entry in the navigation", async ({
  page,
  problems,
}) => {
  const rep = await ownRep("Rory Refused");
  await signIn(page, rep, "/dispute-queue");
  await expect(page.getByRole("heading", { name: "You are not allowed to open this page" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Dispute queue" })).toHaveCount(0);
  expect(problems).toEqual([]);
});
