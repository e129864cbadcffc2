import { asAdmin, state } from "./api.js";
import { expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";

test.use({ locale: "en-US" });

const shown = (amount: number, currency: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency }).format(amount);

test("a statement with a draw advance shows its Draw row, and the kinds add up to the API's total", async ({
  page,
  problems,
}) => {
  const tag = Date.now().toString(36);
  const rep = await asAdmin("POST", "/users", {
    name: `Drew Draw ${tag}`,
    email: `drew.${tag}@e2e.example.com`,
    role: "rep",
    manager_id: state().users.lead.id,
  });
  // A month long past, with no earnings: the run through its end advances the whole draw.
  await asAdmin("POST", "/draws", {
    user_id: rep.id,
    kind: "recoverable",
    amount: 1500,
    currency: "USD",
    period: "month",
    starts_on: "2019-05-01",
    ends_on: "2019-05-31",
  });
  const run = await asAdmin("POST", "/payout-runs", {
    through: "2019-05-31",
    pay_date: "2019-06-05",
    user_ids: [rep.id],
  });
  await asAdmin("POST", `/payout-runs/${run.id}/finalize`);
  const statement = await asAdmin("GET", `/users/${rep.id}/statement?period=2019-05`);
  expect(statement.totals.draw).toBeGreaterThan(0);

  await signIn(page, state().users.admin, `/statements/2019-05?user=${rep.id}`);
  await settled(page);
  const byKind = page.getByTestId("totals-by-kind");
  await expect(byKind.locator('[data-key="draw"]').getByTestId("amount")).toHaveText(
    shown(statement.totals.draw, statement.currency),
  );
  await expect(byKind.locator('[data-key="total"]').getByTestId("amount")).toHaveText(
    shown(statement.totals.total, statement.currency),
  );
  expect(problems).toEqual([]);
});
