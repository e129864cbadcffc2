import type { Page } from "@playwright/test";
import { asAdmin, state } from "./api.js";
import { apiAs, expect, signIn, signOut, test } from "./fixtures.js";
import { settled } from "./settle.js";
import { ownRep } from "./workbench-data.js";

test.use({ locale: "en-US" });

interface Ack {
  id: string;
  user_name: string;
  plan_name: string;
  plan_version: number;
  status: "pending" | "acknowledged";
  document_sha256: string | null;
  acknowledged_at: string | null;
  created_at: string;
  document?: string;
  current_document_sha256?: string;
}

const shownAt = (timestamp: string) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" }).format(new Date(timestamp));

/** The admin's list filtered to one person: its one row's cells, as the page shows them. */
async function listedRow(page: Page, userId: string, status: Ack["status"]) {
  await page.goto(`/plan-acknowledgements?user=${userId}&status=${status}`);
  await settled(page);
  const row = page.getByTestId("plan-acknowledgements").locator("tbody tr");
  await expect(row).toHaveCount(1);
  const cell = (col: string) => row.locator(`[data-col="${col}"]`);
  return { row, cell };
}

test("an admin assigns a plan; the rep reads it and acknowledges it; the admin's list shows it pending, then acknowledged, as the API says", async ({
  page,
  problems,
}) => {
  test.slow(); // a rep, a plan and several pages: more than the default timeout on a busy machine
  const rep = await ownRep("Abe Acknowledger");
  const plan = await asAdmin("POST", "/comp-plans", {
    name: `Signed plan ${Date.now()}`,
    period: "quarter",
    currency: "USD",
    quota: 150000,
    tiers: [
      { from_attainment: 0, rate: 0.08 },
      { from_attainment: 1, rate: 0.125 },
    ],
    cap_per_period: 25000,
    clawback: { window_days: 120, percent: 100, proration: "none" },
    effective_from: "2020-01-01",
  });
  await asAdmin("POST", `/comp-plans/${plan.id}/assignments`, { user_id: rep.id, effective_from: "2020-01-01" });
  const [asked] = (await asAdmin<{ data: Ack[] }>("GET", `/plan-acknowledgements?user_id=${rep.id}`)).data;
  expect(asked).toMatchObject({ plan_name: plan.name, plan_version: plan.version, status: "pending" });

  // Before: the admin's list shows the request pending, with the API's values.
  const admin = state().users.admin;
  await signIn(page, admin, `/plan-acknowledgements?user=${rep.id}&status=pending`);
  let listed = await listedRow(page, rep.id, "pending");
  await expect(listed.cell("person")).toHaveText(asked!.user_name);
  await expect(listed.cell("plan")).toHaveText(asked!.plan_name);
  await expect(listed.cell("version")).toHaveText(String(asked!.plan_version));
  await expect(listed.cell("status")).toHaveText("Not acknowledged");
  await expect(listed.cell("asked")).toHaveText(shownAt(asked!.created_at));
  await expect(listed.cell("acknowledged")).toHaveText("—");
  await signOut(page);

  // The rep: the home's notice, then the document as the API renders it.
  await signIn(page, rep, "/");
  await settled(page);
  const prompt = page.getByTestId("ack-prompt");
  await expect(prompt).toContainText(`"${plan.name}" (version ${plan.version})`);
  await prompt.getByRole("link", { name: "Read and acknowledge it" }).click();
  await expect(page).toHaveURL(new RegExp(`/acknowledgements/${asked!.id}$`));
  await settled(page);
  const asRep = await apiAs(rep);
  const detail = (await asRep<Ack>("GET", `/plan-acknowledgements/${asked!.id}`)).body;
  const shown = await page.getByTestId("plan-document").textContent();
  expect(shown).toBe(detail.document);
  // Its figures are the plan's, in percent: each tier's rate as the API's document writes it.
  for (const line of detail.document!.split("\n").filter((l) => /of quota: .*% of deal value/.test(l))) {
    await expect(page.getByTestId("plan-document")).toContainText(line.trim());
  }
  await expect(page.getByTestId("ack-pending")).toContainText("changes nothing in how your commissions");
  await expect(page.getByRole("button", { name: "Print" })).toBeVisible();

  await page.getByRole("button", { name: "I have read and acknowledge this plan" }).click();
  const receipt = page.getByTestId("ack-receipt");
  await expect(receipt).toBeVisible();
  const done = (await asRep<Ack>("GET", `/plan-acknowledgements/${asked!.id}`)).body;
  expect(done).toMatchObject({ status: "acknowledged", document_sha256: detail.current_document_sha256 });
  await expect(receipt.getByTestId("ack-who")).toHaveText(done.user_name);
  await expect(receipt.getByTestId("ack-plan")).toHaveText(`${done.plan_name}, version ${done.plan_version}`);
  await expect(receipt.getByTestId("ack-when")).toHaveText(shownAt(done.acknowledged_at!));
  await expect(receipt.getByTestId("ack-sha256")).toHaveText(done.document_sha256!);
  await expect(page.getByRole("button", { name: "I have read and acknowledge this plan" })).toHaveCount(0);
  // Nothing waits any more: the home has no notice.
  await page.getByRole("link", { name: "Home" }).click();
  await settled(page);
  await expect(page.getByTestId("ack-prompt")).toHaveCount(0);
  await signOut(page);

  // After: the admin's list shows it acknowledged, with the API's values.
  await signIn(page, admin, `/plan-acknowledgements?user=${rep.id}&status=acknowledged`);
  listed = await listedRow(page, rep.id, "acknowledged");
  await expect(listed.cell("status")).toHaveText("Acknowledged");
  await expect(listed.cell("version")).toHaveText(String(done.plan_version));
  await expect(listed.cell("acknowledged")).toHaveText(shownAt(done.acknowledged_at!));
  await page.goto(`/plan-acknowledgements?user=${rep.id}&status=pending`);
  await settled(page);
  await expect(page.getByText("No acknowledgements match")).toBeVisible();
  expect(problems).toEqual([]);
});
