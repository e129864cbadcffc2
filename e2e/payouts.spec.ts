import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { asAdmin, type SeededUser, state } from "./api.js";
import { apiAs, expect, sessionOf, signIn, test } from "./fixtures.js";
import { type ApiDeal, approvedDeal, cents, ownPlan, ownRep } from "./workbench-data.js";

const formatted = (page: Page, amount: number, currency: string) =>
  page.evaluate(
    ([value, code]) =>
      new Intl.NumberFormat(undefined, { style: "currency", currency: code, minimumFractionDigits: 2 }).format(value),
    [amount, currency] as [number, string],
  );

interface PayoutGroup {
  user_id: string;
  period: string;
  currency: string;
  total: number;
  line_count: number;
  deal_count: number;
}

/** The API's CSV for a query, as this person gets it (their session, `Accept: text/csv`): its records. */
async function apiCsvRows(user: SeededUser, path: string): Promise<string[]> {
  const { cookie } = await sessionOf(user);
  const res = await fetch(`${state().url}/api/v1${path}`, { headers: { Cookie: cookie, Accept: "text/csv" } });
  expect(res.status).toBe(200);
  return records(await res.text());
}

/** CSV text → its records (header included), the BOM dropped; the exports have no line breaks inside cells. */
const records = (text: string) =>
  text
    .replace(/^\uFEFF/, "")
    .split("\r\n")
    .filter((r) => r !== "");

test("finance marks several deals paid from /payouts: exact totals, a refusal listed by deal, the API shows them paid", async ({
  page,
  problems,
}) => {
  const { finance } = state().users;
  const rep = await ownRep("Petra Payout");
  await ownPlan("Payouts e2e plan", [rep]);
  // 10 % each, rounded half away from zero: 1000.01, 220.00 (the CSV writes "220.00"), 333.34, 444.44.
  const deals: ApiDeal[] = [];
  for (const [name, arr] of [
    ["Payout Alpha Ltd", 10000.05],
    ["Payout Beta GmbH", 2200],
    ["Payout Gamma, Inc.", 3333.35],
    ["Payout Delta SA", 4444.44],
  ] as const) {
    deals.push(await approvedDeal(rep, name, arr));
  }
  const asFinance = await apiAs(finance);
  const groups = async () => (await asFinance<{ data: PayoutGroup[] }>("GET", `/payouts?user_id=${rep.id}`)).body.data;
  const [owed] = await groups();
  expect(owed).toMatchObject({ line_count: 4, deal_count: 4 });
  expect(cents(owed!.total)).toBe(deals.reduce((sum, d) => sum + cents(d.total_commission), 0));

  await signIn(page, finance, "/payouts");
  await expect(page.getByRole("heading", { name: "Payouts" })).toBeVisible();
  const groupRow = page.locator(`[data-testid="payout-group"][data-user-id="${rep.id}"]`);
  await expect(groupRow.getByTestId("payout-group-total")).toHaveText(await formatted(page, owed!.total, "USD"));
  await expect(groupRow).toContainText(rep.name);
  await expect(groupRow).toContainText(owed!.period);

  // The group's rep narrows the deals to theirs (the owner filter), as the API lists them for finance.
  await groupRow.getByRole("button", { name: rep.name }).click();
  await expect(page.getByRole("combobox", { name: "Owner" })).toHaveValue(rep.name);
  const listed = (
    await asFinance<{ data: ApiDeal[] }>("GET", `/deals?status=approved&owner_id=${rep.id}&sort=close_date`)
  ).body.data;
  const rows = page.getByTestId("deal-to-pay");
  await expect(rows).toHaveCount(listed.length);
  // Polled: the rows before the filter's answer can be as many.
  await expect
    .poll(() => rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-deal-id"))))
    .toEqual(listed.map((d) => d.id));

  const chosen = deals.slice(0, 3);
  for (const deal of chosen) await page.getByRole("checkbox", { name: `Select ${deal.opportunity_name}` }).check();
  const selectedCents = chosen.reduce((sum, d) => sum + cents(d.total_commission), 0);
  await expect(page.getByTestId("selection-summary")).toHaveText(
    `3 deals selected · ${await formatted(page, selectedCents / 100, "USD")}`,
  );

  // The CSV of the selection: the header and rows the API's own CSV gives for those deals' approved lines.
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const file = await (await download).path();
  const exported = records(readFileSync(file, "utf8"));
  const expected: string[] = [];
  let header = "";
  for (const deal of chosen) {
    const [head, ...lines] = await apiCsvRows(finance, `/commissions?deal_id=${deal.id}&status=approved`);
    header = head!;
    expected.push(...lines);
  }
  expect(exported[0]).toBe(header);
  expect(exported.slice(1).sort()).toEqual(expected.sort());
  expect(exported.length - 1).toBe(chosen.reduce((n, d) => n + d.commissions.length, 0));

  // Someone pays one of them meanwhile: that deal's request is refused, the others go through.
  const paidElsewhere = chosen[1]!;
  await asAdmin("POST", `/deals/${paidElsewhere.id}/mark-paid`);
  const refusal = await asFinance<{ error: { message: string } }>("POST", `/deals/${paidElsewhere.id}/mark-paid`);
  expect(refusal.status).toBe(409);

  await page.getByRole("button", { name: "Mark paid" }).click();
  await page.getByRole("button", { name: "Mark 3 paid" }).click();
  await expect(page.getByTestId("paid-result")).toHaveText("2 deals marked paid.");
  const failure = page.locator(`[data-testid="paid-failure"][data-deal-id="${paidElsewhere.id}"]`);
  await expect(failure).toContainText(paidElsewhere.opportunity_name);
  await expect(failure).toContainText(refusal.body.error.message);
  await expect(failure.locator("code")).toHaveText(/^req_/);
  await expect(page.getByTestId("selection-summary")).toHaveText(
    `1 deal selected · ${await formatted(page, paidElsewhere.total_commission, "USD")}`,
  );

  // The API shows them paid; the unselected one is still owed, and the page's group says exactly that.
  for (const deal of chosen) {
    const now = await asFinance<ApiDeal>("GET", `/deals/${deal.id}`);
    expect(now.body.status).toBe("paid");
    expect(now.body.commissions.every((l) => l.status === "paid")).toBe(true);
  }
  expect((await asFinance<ApiDeal>("GET", `/deals/${deals[3]!.id}`)).body.status).toBe("approved");
  const [left] = await groups();
  expect(left).toMatchObject({ total: deals[3]!.total_commission, line_count: 1, deal_count: 1 });
  await expect(groupRow.getByTestId("payout-group-total")).toHaveText(await formatted(page, left!.total, "USD"));
  await expect(rows).toHaveCount(1);
  expect(problems).toEqual([]);
});

test("a rep gets the 'not allowed' page on /payouts, no navigation entry, and 403 from GET /payouts", async ({
  page,
  problems,
}) => {
  const rep = await ownRep("Rhea Refused");
  await signIn(page, rep, "/payouts");
  await expect(page.getByRole("heading", { name: "You are not allowed to open this page" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Payouts" })).toHaveCount(0);
  const answer = await (await apiAs(rep))<{ error: { code: string } }>("GET", "/payouts");
  expect([answer.status, answer.body.error.code]).toEqual([403, "forbidden"]);
  expect(problems).toEqual([]);
});
