import { asAdmin, state } from "./api.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";
import { ownRep } from "./workbench-data.js";

test.use({ locale: "en-US" });

const shown = (amount: number | string, currency: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency }).format(Number(amount));
const signed = (amount: number, currency: string) =>
  amount > 0 ? `+${shown(amount, currency)}` : amount < 0 ? `−${shown(-amount, currency)}` : shown(0, currency);

test("finance makes a draw in the console; a run settles it; the draws page and the rep's statement show what the API returns; end and forgive change it", async ({
  page,
  problems,
}) => {
  test.slow(); // a rep, a plan and several pages: more than the default timeout on a busy machine
  const rep = await ownRep("Walter Withdraw");
  const finance = state().users.finance;
  const asFinance = await apiAs(finance);

  await signIn(page, finance, "/draws");
  await settled(page);
  await page.getByRole("button", { name: "New draw" }).click();
  const form = page.getByRole("dialog", { name: "New draw" });
  await form.getByRole("combobox", { name: "Person" }).fill(rep.name);
  await form.getByRole("option", { name: rep.name }).click();
  await form.getByRole("textbox", { name: "Currency" }).fill("USD");
  await form.getByLabel(/^Starts on/).fill("2017-03-01");
  await form.getByLabel(/^Ends on/).fill("2017-05-31");
  // No amount yet: the API's 422 names the field, and the form shows its message under it.
  await form.getByRole("button", { name: "Create draw" }).click();
  const refused = await asFinance("POST", "/draws", {
    user_id: rep.id,
    kind: "recoverable",
    currency: "USD",
    period: "month",
    starts_on: "2017-03-01",
    ends_on: "2017-05-31",
  });
  expect(refused.status).toBe(422);
  const amountProblem = refused.body.error.details.find((d: { param: string }) => d.param === "amount").message;
  await expect(form.getByText(amountProblem)).toBeVisible();
  await form.getByRole("textbox", { name: "Amount per period" }).fill("1500");
  await form.getByRole("button", { name: "Create draw" }).click();
  await expect(form).toBeHidden();

  const listed = await asAdmin("GET", `/draws?user_id=${rep.id}`);
  expect(listed.data).toHaveLength(1);
  const created = listed.data[0];
  expect(created).toMatchObject({
    kind: "recoverable",
    amount: 1500,
    currency: "USD",
    period: "month",
    starts_on: "2017-03-01",
    ends_on: "2017-05-31",
    balance: 0,
  });
  const drawer = page.getByTestId("draw-detail");
  await expect(drawer).toHaveAttribute("data-draw-id", created.id);

  // The same draw again overlaps it: 409 conflict, said in words.
  await page.goto("/draws");
  await settled(page);
  await page.getByRole("button", { name: "New draw" }).click();
  const again = page.getByRole("dialog", { name: "New draw" });
  await again.getByRole("combobox", { name: "Person" }).fill(rep.name);
  await again.getByRole("option", { name: rep.name }).click();
  await again.getByRole("textbox", { name: "Amount per period" }).fill("900");
  await again.getByLabel(/^Starts on/).fill("2017-04-01");
  await again.getByLabel(/^Ends on/).fill("2017-04-30");
  await again.getByRole("button", { name: "Create draw" }).click();
  await expect(again.getByRole("alert")).toContainText("overlaps another draw");
  expect((await asAdmin("GET", `/draws?user_id=${rep.id}`)).data).toHaveLength(1);
  await again.getByRole("button", { name: "Cancel" }).click();

  // A run through March settles March: no earnings, so the whole amount is advanced.
  const run = await asAdmin("POST", "/payout-runs", {
    through: "2017-03-31",
    pay_date: "2017-04-05",
    user_ids: [rep.id],
  });
  await asAdmin("POST", `/payout-runs/${run.id}/finalize`);
  const settledDraw = await asAdmin("GET", `/draws/${created.id}`);
  expect(settledDraw.balance).toBeGreaterThan(0);

  await page.goto(`/draws?draw=${created.id}`);
  await settled(page);
  const row = page.locator(`[data-draw-id="${created.id}"]`).first();
  await expect(row.locator('[data-col="balance"]')).toHaveText(shown(settledDraw.balance, "USD"));
  await expect(drawer.getByTestId("draw-balance")).toHaveText(shown(settledDraw.balance, "USD"));
  const march = settledDraw.periods.find((p: { period: string }) => p.period === "2017-03");
  const marchRow = drawer.locator('[data-period="2017-03"]');
  await expect(marchRow.locator('[data-col="advance"]')).toHaveText(shown(march.advance, "USD"));
  await expect(marchRow.locator('[data-col="earned"]')).toHaveText(shown(march.earned, "USD"));

  // The rep's statement of March: the advance line with its explanation, and the draw's balance.
  const statement = await (await apiAs(rep))("GET", `/users/${rep.id}/statement?period=2017-03`);
  expect(statement.body.draw_lines).toHaveLength(1);
  const line = statement.body.draw_lines[0];
  await page.context().clearCookies();
  await signIn(page, rep, "/statements/2017-03");
  await settled(page);
  await expect(page.getByText("No commission lines of deals in 2017-03")).toBeVisible();
  const lineRow = page.getByTestId("statement-draw-lines").locator(`[data-line-id="${line.id}"]`);
  await expect(lineRow.locator('[data-col="type"]')).toHaveText("Advance");
  await expect(lineRow.locator('[data-col="amount"]')).toHaveText(signed(line.amount, "USD"));
  await expect(lineRow.locator('[data-col="earned"]')).toHaveText(shown(line.explanation.earned, "USD"));
  await expect(lineRow.locator('[data-col="balance"]')).toHaveText(
    `${shown(line.explanation.balance_before, "USD")} → ${shown(line.explanation.balance_after, "USD")}`,
  );
  await expect(page.getByTestId("statement-draw-balance")).toHaveText(shown(settledDraw.balance, "USD"));
  // A rep reads their own draw, read-only.
  await page.goto(`/draws?draw=${created.id}`);
  await settled(page);
  await expect(drawer.getByTestId("draw-balance")).toHaveText(shown(settledDraw.balance, "USD"));
  await expect(page.getByRole("button", { name: "End the draw" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "New draw" })).toHaveCount(0);

  // Finance ends it: before March's end a run settled → 409 in words; the end of April is taken.
  await page.context().clearCookies();
  await signIn(page, finance, `/draws?draw=${created.id}`);
  await settled(page);
  await drawer.getByRole("button", { name: "End the draw" }).click();
  const end = page.getByRole("dialog", { name: "End the draw" });
  await end.getByLabel(/^Last day/).fill("2017-03-15");
  await end.getByRole("button", { name: "End the draw" }).click();
  await expect(end.getByRole("alert")).toContainText("A payout run already settled");
  expect((await asAdmin("GET", `/draws/${created.id}`)).ends_on).toBe("2017-05-31");
  await end.getByLabel(/^Last day/).fill("2017-04-30");
  await end.getByRole("button", { name: "End the draw" }).click();
  await expect(end).toBeHidden();
  const ended = await asAdmin("GET", `/draws/${created.id}`);
  expect(ended.ends_on).toBe("2017-04-30");
  await expect(drawer.getByTestId("draw-ends-on")).toHaveText("Apr 30, 2017");

  // Forgiving more than the balance is refused (422); 500.00 with a reason is taken.
  await drawer.getByRole("button", { name: "Forgive the balance" }).click();
  const forgive = page.getByRole("dialog", { name: "Forgive the balance" });
  await forgive.getByRole("textbox", { name: /^Amount/ }).fill(String(ended.balance + 1));
  await forgive.getByRole("textbox", { name: "Reason" }).fill("Goodwill");
  await forgive.getByRole("button", { name: "Forgive" }).click();
  await expect(forgive.getByRole("alert")).toContainText("Nothing was forgiven");
  expect((await asAdmin("GET", `/draws/${created.id}`)).balance).toBe(ended.balance);
  await forgive.getByRole("textbox", { name: /^Amount/ }).fill("500");
  await forgive.getByRole("button", { name: "Forgive" }).click();
  await expect(forgive).toBeHidden();
  const forgiven = await asAdmin("GET", `/draws/${created.id}`);
  expect(forgiven.balance).toBe(ended.balance - 500);
  expect(forgiven.entries.at(-1)).toMatchObject({ type: "forgiveness", amount: -500, reason: "Goodwill" });
  await expect(drawer.getByTestId("draw-balance")).toHaveText(shown(forgiven.balance, "USD"));
  await expect(row.locator('[data-col="balance"]')).toHaveText(shown(forgiven.balance, "USD"));
  expect(problems).toEqual([]);
});
