import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { type SeededUser, state } from "./api.js";
import { apiAs, expect, sessionOf, signIn, signOut, test } from "./fixtures.js";
import { approvedDeal, cents, ownPlan, ownRep } from "./workbench-data.js";

const formatted = (page: Page, amount: number, currency: string) =>
  page.evaluate(
    ([value, code]) =>
      new Intl.NumberFormat(undefined, { style: "currency", currency: code, minimumFractionDigits: 2 }).format(value),
    [amount, currency] as [number, string],
  );

/** The API's answer's bytes (a BOM included), as this person gets it with their session. */
async function apiBytes(user: SeededUser, path: string): Promise<Buffer> {
  const { cookie } = await sessionOf(user);
  const res = await fetch(`${state().url}/api/v1${path}`, { headers: { Cookie: cookie } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

// Runs here always name their people: the e2e server is shared, and a run of everyone would take other
// tests' approved lines.
test("finance creates a run for one rep, reviews it by deal, finalizes it with the typed total and downloads its CSV; the rep's statement shows it paid", async ({
  page,
  problems,
}) => {
  const { finance } = state().users;
  const rep = await ownRep("Rita Runner");
  await ownPlan("Payout runs e2e plan", [rep]);
  const first = await approvedDeal(rep, "Runway Alpha Ltd", 12000);
  const second = await approvedDeal(rep, "Runway Beta GmbH", 4500.5);

  await signIn(page, finance, "/payouts");
  await page.getByRole("button", { name: "New payout run" }).click();
  const dialog = page.getByRole("dialog", { name: "New payout run" });
  await dialog.getByRole("combobox", { name: "Only these people" }).fill(rep.name);
  await page.getByRole("option", { name: rep.name }).click();
  await dialog.getByRole("button", { name: "Create draft run" }).click();
  await expect(page).toHaveURL(/\/payouts\/runs\/prun_/);
  const runId = /\/payouts\/runs\/(prun_[0-9A-Za-z]+)/.exec(page.url())![1]!;

  // The page against the API: the payee's figures and each line by its deal's name.
  const asFinance = await apiAs(finance);
  const run = (await asFinance<any>("GET", `/payout-runs/${runId}?per_page=100`)).body;
  expect(run.status).toBe("draft");
  expect(run.payees).toHaveLength(1);
  const payee = run.payees[0];
  expect(payee.user_id).toBe(rep.id);
  expect(cents(payee.net_pay)).toBe(cents(first.total_commission) + cents(second.total_commission));
  await expect(page.getByTestId("run-status")).toHaveText("Draft");
  const row = page.locator(`[data-testid="payee"][data-user-id="${rep.id}"]`);
  await expect(row.getByTestId("payee-net-pay")).toHaveText(await formatted(page, payee.net_pay, "USD"));
  await expect(row.getByTestId("payee-plan")).toHaveText(await formatted(page, payee.gross.plan, "USD"));
  const lines = page.getByTestId("run-lines");
  for (const deal of [first, second]) {
    const line = lines.locator(`tr[data-deal-id="${deal.id}"]`);
    await expect(line).toContainText(deal.opportunity_name);
    await expect(line.getByTestId("line-amount")).toHaveText(await formatted(page, deal.total_commission, "USD"));
  }

  // Finalize: the button waits for the typed total.
  await page.getByRole("button", { name: "Finalize…" }).click();
  const confirm = page.getByRole("dialog", { name: "Finalize this payout run" });
  const pay = confirm.getByRole("button", { name: "Finalize and pay" });
  await expect(pay).toBeDisabled();
  await confirm.getByRole("textbox", { name: /Type the net pay in USD/ }).fill("1.00");
  await expect(pay).toBeDisabled();
  await confirm.getByRole("textbox", { name: /Type the net pay in USD/ }).fill(payee.net_pay.toFixed(2));
  await pay.click();
  await expect(page.getByTestId("run-status")).toHaveText("Finalized");
  const paid = (await asFinance<any>("GET", `/payout-runs/${runId}?per_page=100`)).body;
  expect(paid.status).toBe("finalized");
  expect(paid.lines.data.map((l: { status: string }) => l.status)).toEqual(paid.lines.data.map(() => "paid"));
  for (const deal of [first, second]) {
    expect((await asFinance<any>("GET", `/deals/${deal.id}`)).body.status).toBe("paid");
  }

  // The generic CSV the page downloads is the API's, byte for byte.
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download CSV (every person and kind)" }).click();
  const file = await (await download).path();
  const bytes = readFileSync(file!);
  expect(bytes.equals(await apiBytes(finance, `/payout-runs/${runId}/export?format=generic`))).toBe(true);
  expect(bytes.toString("utf8")).toContain(`${runId},`);

  // The rep's statement shows each line paid, in the run that paid it.
  await signOut(page);
  // Both deals closed today: the menu's statement (the rep's current period) holds them.
  await signIn(page, rep, "/statements");
  const statementLine = page.locator(`[data-testid="statement-lines"] tr[data-deal-id="${first.id}"]`);
  await expect(statementLine).toContainText("paid");
  await expect(statementLine.getByTestId("paid-in")).toContainText(`Paid on`);
  expect(problems).toEqual([]);
});
