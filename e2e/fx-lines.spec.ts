import { asAdmin, state } from "./api.js";
import { expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";

test.use({ locale: "en-US" });

// Dates long before any seeded deal: the rate set reprices nothing other specs read.
const RATE_DATE = "2019-03-08";
const CLOSE = "2019-03-10"; // a Sunday: Friday's rates apply

/** An amount the API gives ("1007", or "25175/23" when it does not terminate) as en-US money, to the minor unit. */
function shown(amount: string | number, currency: string): string {
  const [n, d] = String(amount).split("/");
  const value = d === undefined ? Number(n) : Number(n) / Number(d);
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(value);
}

/** A new rep on a 15 % USD plan, EUR rates of RATE_DATE, and a EUR deal of 1,007.00 closing on CLOSE. */
async function euroDealOnUsdPlan(who: string) {
  const tag = Date.now().toString(36);
  const rep = await asAdmin("POST", "/users", {
    name: `${who} ${tag}`,
    email: `${who.toLowerCase().replace(/ /g, ".")}.${tag}@e2e.example.com`,
    role: "rep",
    manager_id: state().users.lead.id,
  });
  const plan = await asAdmin("POST", "/comp-plans", {
    name: `USD plan of ${who} ${tag}`,
    period: "quarter",
    currency: "USD",
    quota: 100000,
    tiers: [{ from_attainment: 0, rate: 0.15 }],
    effective_from: "2019-01-01",
  });
  await asAdmin("POST", `/comp-plans/${plan.id}/assignments`, { user_id: rep.id, effective_from: "2019-01-01" });
  await asAdmin("PUT", `/exchange-rates/${RATE_DATE}`, { base: "USD", rates: { EUR: "0.92" } });
  const deal = await asAdmin("POST", "/deals", {
    opportunity_name: `Euro deal of ${who} ${tag}`,
    arr_amount: 1007,
    currency: "EUR",
    close_date: CLOSE,
    owner_id: rep.id,
  });
  return { rep, deal };
}

test("a converted line shows both currencies: the deal's credit, the exact rate and the plan's credit and amount", async ({
  page,
  problems,
}) => {
  const { deal } = await euroDealOnUsdPlan("Flora Fx");
  const line = deal.commissions.find((l: { kind: string }) => l.kind === "plan");
  const fx = line.explanation.fx;
  expect([line.currency, fx.from, fx.to, fx.rate_date]).toEqual(["USD", "EUR", "USD", RATE_DATE]);

  await signIn(page, state().users.admin, `/deals/${deal.id}`);
  await settled(page);
  const card = page.locator(`[data-line-id="${line.id}"]`);
  await expect(card.getByTestId("line-amount")).toHaveText(shown(line.amount, line.currency));
  const conversion = card.getByTestId("fx-conversion");
  await expect(conversion).toHaveAttribute("data-rate", fx.rate);
  await expect(conversion).toHaveText(
    `${shown(fx.credit_in_deal_currency, fx.from)} at ${fx.rate} (${fx.base} rates of ${fx.rate_date}) = ` +
      `${shown(fx.credit, fx.to)} credit`,
  );
  expect(problems).toEqual([]);
});

test("a statement with lines in two currencies shows one total per currency, as the API sums them", async ({
  page,
  problems,
}) => {
  const { rep, deal } = await euroDealOnUsdPlan("Stella Twofold");
  // The plan line is in USD (converted); an adjustment in the deal's EUR makes the period two currencies.
  await asAdmin("POST", "/commissions/adjustments", {
    deal_id: deal.id,
    user_id: rep.id,
    amount: 25,
    currency: "EUR",
    reason: "Launch bonus",
    period: "2019-Q1",
  });
  const statement = await asAdmin("GET", `/users/${rep.id}/statement?period=2019-Q1`);
  expect(statement.totals_by_currency.map((t: { currency: string }) => t.currency)).toEqual(["EUR", "USD"]);

  await signIn(page, state().users.admin, `/statements/2019-Q1?user=${rep.id}`);
  await settled(page);
  const rows = page.getByTestId("totals-by-currency").locator("tr");
  await expect(rows).toHaveCount(2);
  for (const [i, t] of statement.totals_by_currency.entries()) {
    await expect(rows.nth(i)).toHaveAttribute("data-key", t.currency);
    await expect(rows.nth(i).getByTestId("amount")).toHaveText(shown(t.total, t.currency));
  }
  // Each line in its own currency: the converted plan line in USD, the adjustment in EUR.
  for (const line of statement.lines) {
    const row = page.getByTestId("statement-lines").locator(`[data-line-id="${line.id}"]`);
    await expect(row.getByTestId("amount")).toHaveText(shown(line.amount, line.currency));
  }
  const total = page.getByTestId("totals-by-kind").locator('[data-key="total"]').getByTestId("amount");
  await expect(total).toHaveText(shown(statement.totals.total, statement.currency));
  expect(problems).toEqual([]);
});
