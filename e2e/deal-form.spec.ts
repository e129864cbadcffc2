import type { Locator, Page } from "@playwright/test";
import { asAdmin, state } from "./api.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";
import { ownPlan, ownRep } from "./workbench-data.js";

// The deal form (issue #30): an admin creates, edits and deletes pending deals from the console, with the
// commission priced as the form is typed. Every number the page shows is compared with what the API
// answers for the same body (POST /commissions/preview) or holds afterwards (GET /deals/{id}).

test.use({ locale: "en-US" });

const usd = (amount: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2 }).format(amount);

let stamp = 0;
/** A name no other run of the spec gives, in letters only (a rep's email is made from their name). */
const tagged = (name: string) =>
  `${name} ${`${Date.now().toString(36)}${(++stamp).toString(36)}`.replace(/\d/g, (d) => "abcdefghij"[Number(d)]!)}`;
const today = () => new Date().toISOString().slice(0, 10);

async function pick(scope: Page | Locator, label: string, option: string, page: Page) {
  await scope.getByRole("combobox", { name: label, exact: true }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

/** The preview once it prices the form as typed now (no request on its way, typing paused). */
async function currentPreview(page: Page): Promise<Locator> {
  const preview = page.locator('[data-testid="deal-preview"][data-state="current"]');
  await expect(preview).toBeVisible();
  return preview;
}

interface PreviewLine {
  user_id: string;
  kind: string;
  amount: number;
}

/** The page's preview is the API's, line by line (person, kind, amount) and in total. */
async function expectPreviewEqual(
  page: Page,
  api: { lines: PreviewLine[]; total_commission: number },
  names: Map<string, string>,
) {
  const preview = await currentPreview(page);
  const rows = preview.getByTestId("preview-line");
  await expect(rows).toHaveCount(api.lines.length);
  for (const [i, line] of api.lines.entries()) {
    const row = rows.nth(i);
    await expect(row).toHaveAttribute("data-user-id", line.user_id);
    await expect(row).toHaveAttribute("data-kind", line.kind);
    await expect(row.getByTestId("preview-line-person")).toHaveText(names.get(line.user_id)!);
    await expect(row.getByTestId("preview-line-amount")).toHaveText(usd(line.amount));
  }
  await expect(preview.getByTestId("preview-total")).toHaveText(usd(api.total_commission));
}

/** Two reps of the spec's own on a 10 % plan of its own, so no seeded page changes. */
async function twoReps(): Promise<{ owner: { id: string; name: string }; partner: { id: string; name: string } }> {
  const owner = await ownRep(tagged("Dana Dealform"));
  const partner = await ownRep(tagged("Sid Splitter"));
  await ownPlan(tagged("Deal form plan"), [owner, partner]);
  return { owner, partner };
}

test("an admin creates a split deal: the preview on the page is the API's, and the saved lines equal it", async ({
  page,
  problems,
}) => {
  const { owner, partner } = await twoReps();
  const names = new Map([
    [owner.id, owner.name],
    [partner.id, partner.name],
  ]);
  const name = tagged("Globex expansion");
  await signIn(page, state().users.admin, "/deals");
  await page.getByRole("link", { name: "New deal" }).click();
  await expect(page).toHaveURL(/\/deals\/new$/);
  await settled(page);

  // Saved empty: each problem in words on its field, and nothing sent.
  await page.getByRole("button", { name: "Create deal" }).click();
  await expect(page.getByText("Give the deal a name, as your CRM calls the opportunity.")).toBeVisible();
  await expect(page.getByText("Pick who owns the deal.")).toBeVisible();
  await expect(page.getByText("Give the deal's ARR.")).toBeVisible();
  await expect(page.getByTestId("preview-waits")).toHaveText(
    "The preview shows once the deal has an owner and an ARR.",
  );

  await page.getByRole("textbox", { name: "Opportunity name" }).fill(name);
  await pick(page, "Owner", owner.name, page);
  await page.getByRole("textbox", { name: "ARR amount" }).fill("48250.75");
  await pick(page, "Deal type", "Expansion", page);
  await page.getByLabel("Close date").fill(today());

  // Split 60/40: the shares' sum is said in words, with the sum, until it is 100.
  await page.getByRole("button", { name: "Split the credit" }).click();
  await pick(page, "Person 2", partner.name, page);
  await page.getByRole("textbox", { name: "Share 2" }).fill("40");
  await expect(page.getByTestId("splits-problem")).toHaveText(
    "The shares add up to 140%; they must add up to exactly 100 %.",
  );
  await expect(page.getByTestId("preview-waits")).toHaveText(
    "The preview shows once the deal has shares that add up to 100 %.",
  );
  await page.getByRole("textbox", { name: "Share 1" }).fill("60");
  await expect(page.getByTestId("splits-problem")).toHaveCount(0);

  const body = {
    opportunity_name: name,
    owner_id: owner.id,
    arr_amount: 48250.75,
    currency: "USD",
    deal_type: "expansion",
    close_date: today(),
    splits: [
      { user_id: owner.id, percent: 60 },
      { user_id: partner.id, percent: 40 },
    ],
  };
  const preview = await asAdmin<{ lines: PreviewLine[]; total_commission: number }>(
    "POST",
    "/commissions/preview",
    body,
  );
  // Each of the two earns a plan line (and the seed's SPIFF, when the deal qualifies for it).
  expect(new Set(preview.lines.filter((l) => l.kind === "plan").map((l) => l.user_id))).toEqual(
    new Set([owner.id, partner.id]),
  );
  await expectPreviewEqual(page, preview, names);

  await page.getByRole("button", { name: "Create deal" }).click();
  await expect(page).toHaveURL(/\/deals\/deal_[^/]+$/);
  const dealId = new URL(page.url()).pathname.split("/").pop()!;
  const saved = await asAdmin("GET", `/deals/${dealId}`);
  expect(saved).toMatchObject({ ...body, status: "pending" });
  expect(saved.commissions.map((l: PreviewLine) => [l.user_id, l.kind, l.amount])).toEqual(
    preview.lines.map((l) => [l.user_id, l.kind, l.amount]),
  );
  expect(saved.total_commission).toBe(preview.total_commission);
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page.getByTestId("deal-total")).toHaveText(usd(saved.total_commission));
  expect(problems).toEqual([]);
});

/** Two reps on a tiered plan of the spec's own: 8 % up to a 20,000 quota, 12 % above it. */
async function twoRepsTiered() {
  const owner = await ownRep(tagged("Tia Tiered"));
  const partner = await ownRep(tagged("Pat Partner"));
  const plan = await asAdmin("POST", "/comp-plans", {
    name: tagged("Deal form tiered plan"),
    period: "quarter",
    currency: "USD",
    quota: 20000,
    tiers: [
      { from_attainment: 0, rate: 0.08 },
      { from_attainment: 1, rate: 0.12 },
    ],
    effective_from: "2020-01-01",
  });
  for (const rep of [owner, partner]) {
    await asAdmin("POST", `/comp-plans/${plan.id}/assignments`, { user_id: rep.id, effective_from: "2020-01-01" });
  }
  return { owner, partner };
}

test("an admin edits a pending deal: a new ARR moves the preview to the API's, and the save writes it", async ({
  page,
  problems,
}) => {
  const { owner, partner } = await twoRepsTiered();
  const names = new Map([
    [owner.id, owner.name],
    [partner.id, partner.name],
  ]);
  const deal = await asAdmin("POST", "/deals", {
    opportunity_name: tagged("Initech platform"),
    arr_amount: 12000,
    close_date: today(),
    owner_id: owner.id,
    splits: [
      { user_id: owner.id, percent: 75 },
      { user_id: partner.id, percent: 25 },
    ],
  });
  await signIn(page, state().users.admin, `/deals/${deal.id}`);
  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page).toHaveURL(new RegExp(`/deals/${deal.id}/edit$`));
  await expect(page.getByRole("heading", { name: `Edit ${deal.opportunity_name}` })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Share 1" })).toHaveValue("75 %");

  // The form opens on the deal as saved, priced as an edit of it (deal_id): its own lines, to the cent.
  const bodyOf = (arr: number) => ({
    deal_id: deal.id,
    opportunity_name: deal.opportunity_name,
    owner_id: owner.id,
    arr_amount: arr,
    currency: "USD",
    deal_type: "new_business",
    close_date: today(),
    splits: deal.splits,
  });
  const before = await asAdmin("POST", "/commissions/preview", bodyOf(12000));
  expect(before.lines.map((l: PreviewLine) => [l.user_id, l.amount])).toEqual(
    deal.commissions.map((l: PreviewLine) => [l.user_id, l.amount]),
  );
  await expectPreviewEqual(page, before, names);

  // Typed key by key: each pause may ask, a newer body cancels an older answer; the last one is shown.
  const arr = page.getByRole("textbox", { name: "ARR amount" });
  await arr.fill("");
  await arr.pressSequentially("30999.99");
  const after = await asAdmin("POST", "/commissions/preview", bodyOf(30999.99));
  expect(after.total_commission).not.toBe(before.total_commission);
  await expectPreviewEqual(page, after, names);

  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page).toHaveURL(new RegExp(`/deals/${deal.id}$`));
  const saved = await asAdmin("GET", `/deals/${deal.id}`);
  expect(saved.arr_amount).toBe(30999.99);
  expect(saved.splits).toEqual(deal.splits);
  expect(saved.commissions.map((l: PreviewLine) => [l.user_id, l.amount])).toEqual(
    after.lines.map((l: PreviewLine) => [l.user_id, l.amount]),
  );
  await expect(page.getByTestId("deal-total")).toHaveText(usd(saved.total_commission));
  expect(problems).toEqual([]);
});

test("an edit the deal changed under (If-Match) saves nothing and says so", async ({ page, problems }) => {
  const { owner } = await twoReps();
  const deal = await asAdmin("POST", "/deals", {
    opportunity_name: tagged("Hooli renewal"),
    arr_amount: 5000,
    deal_type: "renewal",
    close_date: today(),
    owner_id: owner.id,
  });
  await signIn(page, state().users.admin, `/deals/${deal.id}/edit`);
  await currentPreview(page);
  // Someone else changes the deal while the form is open.
  await asAdmin("PATCH", `/deals/${deal.id}`, { arr_amount: 5100 });
  await page.getByRole("textbox", { name: "ARR amount" }).fill("7000");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Someone changed this deal since you opened it" }),
  ).toBeVisible();
  expect((await asAdmin("GET", `/deals/${deal.id}`)).arr_amount).toBe(5100);
  await page.getByRole("button", { name: "Start again" }).click();
  await expect(page.getByRole("textbox", { name: "ARR amount" })).toHaveValue("5,100");
  expect(problems).toEqual([]);
});

test("an admin deletes a pending deal after a confirmation naming it; the API then answers 404", async ({
  page,
  problems,
}) => {
  const { owner } = await twoReps();
  const deal = await asAdmin("POST", "/deals", {
    opportunity_name: tagged("Umbrella pilot"),
    arr_amount: 3000,
    close_date: today(),
    owner_id: owner.id,
  });
  await signIn(page, state().users.admin, `/deals/${deal.id}`);
  await page.getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: `Delete ${deal.opportunity_name}?` });
  await expect(dialog).toContainText(`${deal.opportunity_name} and its commission lines are removed for good`);
  await dialog.getByRole("button", { name: "Keep it" }).click();
  await expect(dialog).toHaveCount(0);
  expect((await apiAs(state().users.admin).then((admin) => admin("GET", `/deals/${deal.id}`))).status).toBe(200);

  await page.getByRole("button", { name: "Delete" }).click();
  await dialog.getByRole("button", { name: "Delete deal" }).click();
  await expect(page).toHaveURL(/\/deals$/);
  const admin = await apiAs(state().users.admin);
  const gone = await admin("GET", `/deals/${deal.id}`);
  expect(gone.status).toBe(404);
  expect(gone.body.error.code).toBe("not_found");
  expect(problems).toEqual([]);
});

test("a rep, whom the API refuses deal writes, sees no New deal, Edit or Delete", async ({ page, problems }) => {
  const { users, deals } = state();
  const rita = await apiAs(users.rita);
  const refused = await rita("POST", "/deals", {
    opportunity_name: "Not allowed",
    arr_amount: 1,
    close_date: today(),
    owner_id: users.rita.id,
  });
  expect(refused.status).toBe(403);
  expect(refused.body.error.code).toBe("forbidden");
  expect((await rita("PATCH", `/deals/${deals.ritaPending}`, { arr_amount: 2 })).status).toBe(403);

  await signIn(page, users.rita, "/deals");
  await settled(page);
  await expect(page.getByRole("heading", { name: "Deals" })).toBeVisible();
  await expect(page.getByRole("link", { name: "New deal" })).toHaveCount(0);
  await page.goto(`/deals/${deals.ritaPending}`);
  await expect(page.getByTestId("deal-status")).toHaveText("pending");
  await expect(page.getByRole("link", { name: "Edit" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Delete" })).toHaveCount(0);
  await page.goto("/deals/new");
  await expect(page.getByRole("heading", { name: "You are not allowed to open this page" })).toBeVisible();
  expect(problems).toEqual([]);
});
