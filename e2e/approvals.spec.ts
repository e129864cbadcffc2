import type { Page } from "@playwright/test";
import { asAdmin, state } from "./api.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";
import { waitOf } from "./waits.js";

// The admin's approval queue. Each test makes its own rep, plan and pending deals (names carry a
// stamp) and filters the queue to its plan, so it never approves what other specs read from the seed.

test.use({ locale: "en-US" });

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency, minimumFractionDigits: 2 }).format(amount);

/** The first and last dates of this quarter, as the API filters close dates. */
function thisQuarter(): { label: string; from: string; to: string } {
  const now = new Date();
  const year = now.getFullYear();
  const q = Math.floor(now.getMonth() / 3) + 1;
  const last = new Date(Date.UTC(year, q * 3, 0)).getUTCDate();
  const pad = (n: number) => String(n).padStart(2, "0");
  return { label: `${year}-Q${q}`, from: `${year}-${pad(q * 3 - 2)}-01`, to: `${year}-${pad(q * 3)}-${pad(last)}` };
}

let stamp = 0;

/** A rep of our own on a plan of our own, and pending deals for them (this quarter unless said). */
async function queueWorld(
  deals: { arr: number; type?: string; back?: number }[],
): Promise<{ rep: any; plan: any; deals: any[]; tag: string }> {
  const tag = `${Date.now().toString(36)}${++stamp}`;
  const rep = await asAdmin("POST", "/users", {
    name: `Quinn Queue ${tag}`,
    email: `quinn.${tag}@e2e.example.com`,
    role: "rep",
    manager_id: state().users.lead.id,
  });
  const start = `${new Date().getFullYear() - 1}-01-01`;
  const plan = await asAdmin("POST", "/comp-plans", {
    name: `Queue plan ${tag}`,
    period: "quarter",
    currency: "USD",
    quota: 50000,
    tiers: [
      { from_attainment: 0, rate: 0.07 },
      { from_attainment: 1, rate: 0.11 },
    ],
    effective_from: start,
  });
  await asAdmin("POST", `/comp-plans/${plan.id}/assignments`, { user_id: rep.id, effective_from: start });
  const q = thisQuarter();
  const created = [];
  for (const [i, d] of deals.entries()) {
    const close = new Date(`${q.from}T00:00:00Z`);
    close.setUTCMonth(close.getUTCMonth() - 3 * (d.back ?? 0));
    close.setUTCDate(1 + (i % 20));
    created.push(
      await asAdmin("POST", "/deals", {
        opportunity_name: `Queue deal ${String(i + 1).padStart(2, "0")} ${tag}`,
        arr_amount: d.arr,
        deal_type: d.type ?? "new_business",
        close_date: close.toISOString().slice(0, 10),
        owner_id: rep.id,
      }),
    );
  }
  return { rep, plan, deals: created, tag };
}

async function pick(page: Page, label: string, option: string) {
  await page.getByRole("combobox", { name: label, exact: true }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

const queue = (page: Page) => page.getByRole("table", { name: "Pending deals" });
// Read through expect.poll: a new sort or filter keeps the previous rows (as many) until its answer.
const rowIds = (page: Page) =>
  queue(page)
    .locator("tbody tr")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-deal-id")));

test("an admin approves 20 deals at once from the queue, and the API has each approved", async ({ page, problems }) => {
  const world = await queueWorld(Array.from({ length: 20 }, (_, i) => ({ arr: (100_000 + i * 33_333) / 100 })));
  const admin = await apiAs(state().users.admin);
  await signIn(page, state().users.admin, "/approvals");
  await settled(page);
  await pick(page, "Plan", world.plan.name);
  await expect(queue(page).locator("tbody tr")).toHaveCount(20);
  const listed = await admin("GET", `/deals?status=pending&plan_id=${world.plan.id}&per_page=100`);
  expect(listed.body.meta.total).toBe(20);
  await expect.poll(() => rowIds(page)).toEqual(listed.body.data.map((d: any) => d.id));

  await page.getByRole("checkbox", { name: "Select every deal on this page" }).check();
  // The total the page shows is the exact sum, to the cent, of the commissions the API computed.
  const cents = listed.body.data.reduce((sum: number, d: any) => sum + Math.round(d.total_commission * 100), 0);
  expect(cents).toBeGreaterThan(0);
  await expect(page.getByTestId("selection-total")).toHaveText(`20 selected · commission ${money(cents / 100, "USD")}`);

  // It asks first, with the count and the same exact total; nothing is approved until confirmed.
  await page.getByRole("button", { name: "Approve 20 selected" }).click();
  const confirm = page.getByRole("dialog", { name: "Approve 20 deals?" });
  await expect(confirm).toContainText(
    `Approve 20 deals, ${money(cents / 100, "USD")} commission? Approving locks their lines.`,
  );
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toHaveCount(0);
  const stillPending = await admin("GET", `/deals?status=pending&plan_id=${world.plan.id}&per_page=100`);
  expect(stillPending.body.meta.total).toBe(20);
  await page.getByRole("button", { name: "Approve 20 selected" }).click();
  await confirm.getByRole("button", { name: "Approve 20 deals" }).click();
  await expect(page.getByTestId("bulk-outcome")).toContainText("Approved 20 deals", { timeout: waitOf(30_000) });
  await expect(page.getByTestId("bulk-outcome")).not.toContainText("failed");
  for (const deal of world.deals) {
    const got = await admin("GET", `/deals/${deal.id}`);
    expect(got.status).toBe(200);
    expect(got.body.status).toBe("approved");
    expect(got.body.approved_at).not.toBeNull();
  }
  await expect(page.getByRole("heading", { name: "No pending deals" })).toBeVisible();
  await expect(page.getByTestId("selection-total")).toHaveText(`0 selected · commission ${money(0, "USD")}`);
  expect(problems).toEqual([]);
});

test("a bulk approval lists each deal that failed with the server's message and request id", async ({
  page,
  problems,
}) => {
  const world = await queueWorld([{ arr: 1200 }, { arr: 2400 }, { arr: 3600 }]);
  const admin = await apiAs(state().users.admin);
  await signIn(page, state().users.admin, "/approvals");
  await settled(page);
  await pick(page, "Plan", world.plan.name);
  await expect(queue(page).locator("tbody tr")).toHaveCount(3);
  await page.getByRole("checkbox", { name: "Select every deal on this page" }).check();
  // Someone else approves one while it is selected here: that one's request is refused.
  const [taken] = world.deals;
  expect((await admin("POST", `/deals/${taken.id}/approve`, {})).status).toBe(200);
  const again = await admin("POST", `/deals/${taken.id}/approve`, {});
  expect(again.status).toBe(409);
  await page.getByRole("button", { name: "Approve 3 selected" }).click();
  const total = world.deals.reduce((sum, d) => sum + Math.round(d.total_commission * 100), 0) / 100;
  const confirm = page.getByRole("dialog", { name: "Approve 3 deals?" });
  await expect(confirm).toContainText(`Approve 3 deals, ${money(total, "USD")} commission?`);
  await confirm.getByRole("button", { name: "Approve 3 deals" }).click();
  const outcome = page.getByTestId("bulk-outcome");
  await expect(outcome).toContainText("Approved 2 deals; 1 failed");
  const failure = outcome.locator(`li[data-deal-id="${taken.id}"]`);
  await expect(failure).toContainText(`${taken.opportunity_name}: ${again.body.error.message}`);
  await expect(failure.locator("code")).toHaveText(/^req_/);
  for (const deal of world.deals) expect((await admin("GET", `/deals/${deal.id}`)).body.status).toBe("approved");
  // Neither the approved deals nor the one approved elsewhere (retrying cannot help) stay selected.
  await expect(page.getByTestId("selection-total")).toHaveText(`0 selected · commission ${money(0, "USD")}`);
  await expect(page.getByRole("heading", { name: "No pending deals" })).toBeVisible();
  expect(problems).toEqual([]);
});

test("reject with a reason; the shortcuts act on the focused row, never while typing", async ({ page, problems }) => {
  const world = await queueWorld([{ arr: 4200 }, { arr: 5300.5 }]);
  const [older, newer] = world.deals;
  const admin = await apiAs(state().users.admin);
  await signIn(page, state().users.admin, "/approvals");
  await settled(page);
  await pick(page, "Plan", world.plan.name);
  await expect(queue(page).locator("tbody tr")).toHaveCount(2);
  // Newest first: the first row is the newer deal.
  await expect.poll(() => rowIds(page)).toEqual([newer.id, older.id]);
  await expect(page.getByTestId("shortcut-help")).toContainText("approve");

  // Typing "a", "x" and "r" in a field filters (and the API refuses the amount), it approves nothing.
  const from = page.getByRole("textbox", { name: "ARR from" });
  await from.fill("");
  await from.pressSequentially("axr");
  const refused = await admin("GET", "/deals?status=pending&arr_amount_min=axr");
  expect(refused.status).toBe(422);
  await expect(page.getByText(refused.body.error.details[0].message)).toBeVisible();
  expect((await admin("GET", `/deals/${newer.id}`)).body.status).toBe("pending");
  await from.fill("");
  await expect(queue(page).locator("tbody tr")).toHaveCount(2);

  // x selects the focused (first) row; j moves down; r opens the rejection of the second.
  await page.getByRole("heading", { name: "Approvals" }).click();
  await page.keyboard.press("x");
  await expect(page.getByRole("checkbox", { name: `Select ${newer.opportunity_name}` })).toBeChecked();
  await expect(page.getByTestId("selection-total")).toHaveText(
    `1 selected · commission ${money(newer.total_commission, "USD")}`,
  );
  await page.keyboard.press("j");
  await page.keyboard.press("r");
  const dialog = page.getByRole("dialog", { name: `Reject ${older.opportunity_name}` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Reject deal" }).click();
  await expect(dialog.getByText("A reason is required")).toBeVisible();
  const reason = `Duplicate of the renewal booked in the CRM (${world.tag})`;
  await dialog.getByRole("textbox", { name: "Reason" }).fill(reason);
  await dialog.getByRole("button", { name: "Reject deal" }).click();
  await expect(dialog).toBeHidden();
  const rejected = await admin("GET", `/deals/${older.id}`);
  expect(rejected.body.status).toBe("rejected");
  expect(rejected.body.rejection_reason).toBe(reason);
  await expect(queue(page).locator("tbody tr")).toHaveCount(1);
  expect((await admin("GET", `/deals/${newer.id}`)).body.status).toBe("pending");

  // o opens the deal's lines with their explanations, as the API has them.
  await page.getByRole("heading", { name: "Approvals" }).click();
  await page.keyboard.press("o");
  const drawer = page.getByTestId("deal-drawer");
  const detail = (await admin("GET", `/deals/${newer.id}`)).body;
  await expect(drawer.getByTestId("commission-line")).toHaveCount(detail.commissions.length);
  await expect(drawer.getByTestId("explanation-summary").first()).toHaveText(detail.commissions[0].explanation.summary);
  await expect(drawer.getByTestId("line-amount").first()).toHaveText(money(detail.commissions[0].amount, "USD"));

  // a asks, as the button does, naming the focused deal and its total as the API has it; Escape keeps it pending.
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await page.getByRole("heading", { name: "Approvals" }).click();
  await page.keyboard.press("a");
  const confirm = page.getByRole("dialog", { name: "Approve this deal?" });
  await expect(confirm).toContainText(
    `Approve ${newer.opportunity_name}, ${money(detail.total_commission, "USD")} commission? Approving locks its lines.`,
  );
  await page.keyboard.press("Escape");
  await expect(confirm).toHaveCount(0);
  expect((await admin("GET", `/deals/${newer.id}`)).body.status).toBe("pending");
  // The shortcuts wait while it is open; Enter approves (the confirm button has the focus).
  await page.keyboard.press("a");
  await expect(confirm).toBeVisible();
  await page.keyboard.press("a");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "No pending deals" })).toBeVisible();
  expect((await admin("GET", `/deals/${newer.id}`)).body.status).toBe("approved");
  expect(problems).toEqual([]);
});

test("filters narrow the queue to what the API returns for the same filters", async ({ page, problems }) => {
  const world = await queueWorld([
    { arr: 1500, type: "expansion" },
    { arr: 2500, type: "expansion" },
    { arr: 2500.01, type: "renewal" },
    { arr: 4000, type: "expansion", back: 1 },
    { arr: 9000, type: "expansion" },
    { arr: 3000, type: "new_business" },
  ]);
  const admin = await apiAs(state().users.admin);
  const q = thisQuarter();
  await signIn(page, state().users.admin, "/approvals");
  await settled(page);
  const expectRows = async (query: string, count: number, sort = "-created_at") => {
    const api = await admin("GET", `/deals?status=pending&sort=${sort}&per_page=50&${query}`);
    expect(api.status).toBe(200);
    expect(api.body.data).toHaveLength(count);
    await expect(queue(page).locator("tbody tr")).toHaveCount(count);
    await expect(page.getByTestId("queue-total")).toHaveText(`${count} pending deal${count === 1 ? "" : "s"}`);
    await expect.poll(() => rowIds(page)).toEqual(api.body.data.map((d: any) => d.id));
  };

  await pick(page, "Owner", world.rep.name);
  await expectRows(`owner_id=${world.rep.id}`, 6);
  await pick(page, "Plan", world.plan.name);
  await expectRows(`owner_id=${world.rep.id}&plan_id=${world.plan.id}`, 6);
  await pick(page, "Deal type", "Expansion");
  await page.keyboard.press("Escape");
  await expectRows(`owner_id=${world.rep.id}&plan_id=${world.plan.id}&deal_type=expansion`, 4);
  await page.getByRole("textbox", { name: "ARR from" }).fill("2000");
  await page.getByRole("textbox", { name: "ARR to" }).fill("5000");
  const amounts = `owner_id=${world.rep.id}&plan_id=${world.plan.id}&deal_type=expansion&arr_amount_min=2000&arr_amount_max=5000`;
  await expectRows(amounts, 2);
  await pick(page, "Close period", q.label);
  await expectRows(`${amounts}&close_date_from=${q.from}&close_date_to=${q.to}`, 1);

  // Sorting is the API's: ARR descending over the owner's deals.
  await page.getByRole("button", { name: "Clear filters" }).click();
  await pick(page, "Owner", world.rep.name);
  await expectRows(`owner_id=${world.rep.id}`, 6);
  await queue(page).getByRole("button", { name: "ARR" }).click();
  await expect(queue(page).getByRole("columnheader", { name: /ARR/ })).toHaveAttribute("aria-sort", "descending");
  await expectRows(`owner_id=${world.rep.id}`, 6, "-arr_amount");
  expect(problems).toEqual([]);
});

test("a rep who opens the approval queue by URL gets the not-allowed page, and no Approvals link", async ({
  page,
  problems,
}) => {
  const { users } = state();
  await signIn(page, users.rita, "/approvals");
  await expect(page.getByRole("heading", { name: "You are not allowed to open this page" })).toBeVisible();
  await expect(page.getByText("It is for admin users.")).toBeVisible();
  await expect(page.getByRole("table")).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Approvals" })).toHaveCount(0);
  // The API refuses the action anyway.
  const rita = await apiAs(users.rita);
  const refused = await rita("POST", `/deals/${state().deals.ritaPending}/approve`, {});
  expect(refused.status).toBe(403);
  expect(refused.body.error.code).toBe("forbidden");
  expect(problems).toEqual([]);
});
