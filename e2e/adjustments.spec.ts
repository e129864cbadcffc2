import { asAdmin, state } from "./api.js";
import { apiAs, expect, signIn, signOut, test } from "./fixtures.js";
import { ownPlan, ownRep } from "./workbench-data.js";

// Finance adjusts a deal from its page (issue #30): errors in words before anything is sent, then the
// line the API wrote shows on the page with its amount, reason and author, and on the rep's statement.

test.use({ locale: "en-US" });

const usd = (amount: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2 }).format(amount);

test("finance adds an adjustment from the deal page: the page shows the line the API wrote, with its reason and author", async ({
  page,
  problems,
}) => {
  const { finance } = state().users;
  const rep = await ownRep("Adele Adjusted");
  await ownPlan("Adjustment e2e plan", [rep]);
  const deal = await asAdmin("POST", "/deals", {
    opportunity_name: "Adjusted Corp expansion",
    arr_amount: 20000,
    close_date: new Date().toISOString().slice(0, 10),
    owner_id: rep.id,
  });
  await asAdmin("POST", `/deals/${deal.id}/approve`);

  await signIn(page, finance, `/deals/${deal.id}`);
  await page.getByRole("button", { name: "Add adjustment" }).click();
  const form = page.getByRole("dialog", { name: "Adjust Adjusted Corp expansion" });
  await form.getByRole("button", { name: "Add adjustment" }).click();
  await expect(form.getByText("Give the amount: positive pays more, negative takes back.")).toBeVisible();
  await expect(form.getByText("Say why: the person reads it with the line.")).toBeVisible();
  expect((await asAdmin("GET", `/deals/${deal.id}`)).commissions.filter((l: any) => l.kind === "adjustment")).toEqual(
    [],
  );

  await form.getByLabel("Amount (USD)").fill("-150.25");
  await form.getByLabel("Reason").fill("Discount given after signature");
  await form.getByRole("button", { name: "Add adjustment" }).click();
  await expect(form).toHaveCount(0);

  const after = await asAdmin("GET", `/deals/${deal.id}`);
  const lines = after.commissions.filter((l: any) => l.kind === "adjustment");
  expect(lines).toHaveLength(1);
  const [line] = lines;
  expect(line).toMatchObject({ user_id: rep.id, amount: -150.25, status: "approved" });
  expect(line.explanation).toMatchObject({ reason: "Discount given after signature", author: { name: finance.name } });

  const card = page.locator(`[data-testid="commission-line"][data-line-id="${line.id}"]`);
  await expect(card).toBeVisible();
  await expect(card.getByTestId("line-amount")).toHaveText(usd(line.amount));
  await expect(card.getByRole("table")).toContainText(`Reason${line.explanation.reason}`);
  await expect(card.getByRole("table")).toContainText(`By${line.explanation.author.name}`);
  await expect(page.getByTestId("deal-total")).toHaveText(usd(after.total_commission));

  // The rep reconciles it: the line is on their statement for its period, as the API has it there.
  await signOut(page);
  const statement = (await (await apiAs(rep))("GET", `/users/${rep.id}/statement?period=${line.period}`)).body;
  const onStatement = statement.lines.find((l: { id: string }) => l.id === line.id);
  expect(onStatement).toMatchObject({ amount: -150.25 });
  await signIn(page, rep, `/statements/${line.period}`);
  const row = page.locator(`[data-testid="statement-lines"] tr[data-line-id="${line.id}"]`);
  await expect(row.locator('[data-col="amount"]')).toHaveText(usd(onStatement.amount));
  await expect(page.getByTestId("statement-lines").locator("tbody tr")).toHaveCount(statement.lines.length);
  expect(problems).toEqual([]);
});

test("a rep sees no Add adjustment on their own deal", async ({ page, problems }) => {
  const { rita } = state().users;
  const deals = await asAdmin("GET", `/deals?owner_id=${rita.id}&per_page=1`);
  await signIn(page, rita, `/deals/${deals.data[0].id}`);
  await expect(page.getByTestId("deal-status")).toBeVisible();
  await expect(page.getByRole("button", { name: "Add adjustment" })).toHaveCount(0);
  expect(problems).toEqual([]);
});
