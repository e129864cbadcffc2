import { asAdmin, state } from "./api.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";
import { ownRep } from "./workbench-data.js";

interface Clawback {
  user_id: string;
  plan_id: string | null;
  amount: number;
  note: string;
}

test("an admin cancels a split deal from its page: the dialog shows the clawbacks the API's preview gives, and the cancellation writes them", async ({
  page,
  problems,
}) => {
  const { admin } = state().users;
  const ana = await ownRep("Clara Clawback");
  const ben = await ownRep("Cody Clawback");
  // 10 % flat, clawed back in full within 90 days of the close date.
  const plan = await asAdmin("POST", "/comp-plans", {
    name: "Clawback e2e plan",
    period: "quarter",
    currency: "USD",
    base_rate: 0.1,
    effective_from: "2020-01-01",
    clawback: { window_days: 90, percent: 100, proration: "none" },
  });
  for (const rep of [ana, ben]) {
    await asAdmin("POST", `/comp-plans/${plan.id}/assignments`, { user_id: rep.id, effective_from: "2020-01-01" });
  }
  const today = new Date().toISOString().slice(0, 10);
  const created = await asAdmin("POST", "/deals", {
    opportunity_name: "Clawback Corp renewal",
    arr_amount: 50000,
    close_date: today,
    owner_id: ana.id,
    splits: [
      { user_id: ana.id, percent: 60 },
      { user_id: ben.id, percent: 40 },
    ],
  });
  const approved = await asAdmin<{ commissions: { user_id: string; kind: string; amount: number }[] }>(
    "POST",
    `/deals/${created.id}/approve`,
  );
  // A full clawback takes back each person's plan and SPIFF lines on the deal (a seeded SPIFF may apply).
  const earned = (userId: string) =>
    approved.commissions
      .filter((l) => l.user_id === userId && (l.kind === "plan" || l.kind === "spiff"))
      .reduce((sum, l) => sum + Math.round(l.amount * 100), 0);

  const asAdminPerson = await apiAs(admin);
  const preview = await asAdminPerson<{ clawback_summary: Clawback[] }>(
    "POST",
    `/deals/${created.id}/clawback-preview`,
    {
      type: "cancel",
      effective_date: today,
    },
  );
  expect(preview.status).toBe(200);
  expect(preview.body.clawback_summary.map((c) => [c.user_id, Math.round(c.amount * 100)])).toEqual([
    [ana.id, -earned(ana.id)],
    [ben.id, -earned(ben.id)],
  ]);
  expect(earned(ana.id)).toBeGreaterThanOrEqual(300000);

  await signIn(page, admin, `/deals/${created.id}`);
  await page.getByRole("button", { name: "Cancel deal…" }).click();
  const dialog = page.getByRole("dialog", { name: "Cancel this deal" });
  await dialog.getByRole("textbox", { name: "Reason" }).fill("Customer went out of business");
  const rows = dialog.getByTestId("clawback-row");
  await expect(rows).toHaveCount(preview.body.clawback_summary.length);
  for (const c of preview.body.clawback_summary) {
    const row = dialog.locator(`[data-testid="clawback-row"][data-user-id="${c.user_id}"]`);
    const shown = await page.evaluate(
      (value) =>
        new Intl.NumberFormat(undefined, { style: "currency", currency: "USD", minimumFractionDigits: 2 }).format(
          value,
        ),
      c.amount,
    );
    await expect(row.getByTestId("clawback-amount")).toHaveText(shown);
    await expect(row).toContainText(c.note);
  }
  await dialog.getByTestId("confirm-clawback").click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("deal-status")).toHaveText("cancelled");
  await expect(page.getByTestId("deal-cancelled")).toContainText("Customer went out of business");

  // What the cancellation wrote is what the preview said.
  const deal = (await asAdminPerson<any>("GET", `/deals/${created.id}`)).body;
  expect(deal.status).toBe("cancelled");
  const clawbacks = deal.commissions
    .filter((l: { kind: string }) => l.kind === "clawback")
    .map((l: { user_id: string; amount: number }) => [l.user_id, l.amount]);
  expect(clawbacks).toEqual(preview.body.clawback_summary.map((c) => [c.user_id, c.amount]));
  expect(problems).toEqual([]);
});
