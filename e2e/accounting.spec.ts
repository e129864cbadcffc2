import { readFileSync } from "node:fs";
import { asAdmin, state } from "./api.js";
import { expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";

test.use({ locale: "en-US" });

const shown = (amount: number, currency: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency }).format(amount);
const cents = (text: string) => (text === "" ? 0 : Math.round(Number(text) * 100));

interface RollForwardRow {
  currency: string;
  opening: number;
  additions: number;
  adjustments: number;
  amortization: number;
  clawbacks: number;
  impairment: number;
  closing: number;
  current: number;
  noncurrent: number;
}

test("finance downloads a month's journal whose totals equal that month's roll-forward", async ({ page, problems }) => {
  // A deal approved now: this month's journal holds its addition and first amortization at least.
  const tag = Date.now().toString(36);
  const deal = await asAdmin("POST", "/deals", {
    opportunity_name: `Ledger ${tag}`,
    arr_amount: 24000,
    close_date: new Date().toISOString().slice(0, 10),
    owner_id: state().users.rita.id,
  });
  await asAdmin("POST", `/deals/${deal.id}/approve`);
  const month = new Date().toISOString().slice(0, 7);
  const rollForward: { data: RollForwardRow[] } = await asAdmin(
    "GET",
    `/accounting/roll-forward?from=${month}&to=${month}`,
  );
  expect(rollForward.data.length).toBeGreaterThan(0);

  await signIn(page, state().users.finance, `/accounting?from=${month}&to=${month}&month=${month}`);
  await settled(page);
  await expect(page.getByRole("heading", { level: 1, name: "Accounting" })).toBeVisible();
  const policy = await asAdmin("GET", "/settings/accounting");
  await expect(page.getByTestId("accounting-policy")).toContainText(
    `${policy.expected_customer_life_months} months of expected customer life`,
  );

  // The page's roll-forward is the API's, cell by cell.
  const table = page.getByTestId("roll-forward");
  for (const row of rollForward.data) {
    const line = table.locator(`[data-currency="${row.currency}"]`);
    for (const key of ["opening", "additions", "amortization", "closing", "current", "noncurrent"] as const) {
      await expect(line.locator(`[data-field="${key}"]`)).toHaveText(shown(row[key], row.currency));
    }
  }

  // The file is what the API's CSV answers, and its entries add up to the roll-forward's movements.
  const expected = await page.request.get(`/api/v1/accounting/journal?month=${month}`, {
    headers: { accept: "text/csv" },
  });
  expect(expected.status()).toBe(200);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download the journal (CSV)" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`journal-${month}.csv`);
  const saved = readFileSync(await download.path());
  expect(saved.equals(await expected.body())).toBe(true);

  const [header, ...rows] = saved
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
  expect(header).toBe("date,account,debit,credit,memo,deal_id,line_id,currency");
  for (const rf of rollForward.data) {
    const mine = rows.map((r) => r.split(",")).filter((cells) => cells[7] === rf.currency);
    const debits = mine.reduce((s, c) => s + cents(c[2]!), 0);
    const credits = mine.reduce((s, c) => s + cents(c[3]!), 0);
    expect(debits).toBe(credits);
    const deferred = mine.filter((c) => c[1] === "Deferred commissions");
    const moved = deferred.reduce((s, c) => s + cents(c[2]!) - cents(c[3]!), 0);
    expect(moved).toBe(
      cents(String(rf.additions)) +
        cents(String(rf.adjustments)) -
        cents(String(rf.amortization)) -
        cents(String(rf.clawbacks)) -
        cents(String(rf.impairment)),
    );
    const byMemo = (start: string) =>
      deferred.filter((c) => c[4]!.startsWith(start)).reduce((s, c) => s + cents(c[2]!) + cents(c[3]!), 0);
    expect(byMemo("Commission capitalized")).toBe(cents(String(rf.additions)));
    expect(byMemo("Amortization")).toBe(cents(String(rf.amortization)));
    expect(byMemo("Clawback of")).toBe(cents(String(rf.clawbacks)));
    expect(byMemo("Impairment")).toBe(cents(String(rf.impairment)));

    // The page's totals by account are the file's, summed.
    const summary = page.getByTestId("journal-summary");
    const cells = summary.locator(
      `[data-account="Deferred commissions"][data-currency="${rf.currency}"] [data-field="debit"]`,
    );
    const fileDebit = deferred.reduce((s, c) => s + cents(c[2]!), 0);
    const texts = (await cells.allTextContents()).filter((t) => t !== "");
    expect(texts).toEqual(fileDebit > 0 ? [shown(fileDebit / 100, rf.currency)] : []);
  }
  expect(problems).toEqual([]);
});
