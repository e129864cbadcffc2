import type { Page } from "@playwright/test";
import { asAdmin, state } from "./api.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";
import { waitOf } from "./waits.js";
import { startReceiver } from "./webhook-receiver.js";
import { approvedDeal, ownPlan, ownRep } from "./workbench-data.js";

/** The workbench pages shown at work: an open dispute being resolved, a payout selection. */
async function disputeBeingResolved(page: Page): Promise<void> {
  const card = page.locator('[data-testid="queue-dispute"]', { hasText: "Northwind expansion" }).first();
  await card.getByRole("button", { name: /^Show lines/ }).click();
  await card.getByRole("button", { name: "Resolve" }).click();
  await card.getByRole("radio", { name: "Partially approved" }).check();
  await card.getByRole("textbox", { name: "Accepted total commission" }).fill("1450");
  await card.getByRole("textbox", { name: "Note" }).fill("Expansion rate agreed with RevOps; discount excluded.");
  await card.scrollIntoViewIfNeeded();
}

async function payoutSelection(page: Page): Promise<void> {
  const boxes = page.getByTestId("deal-to-pay").getByRole("checkbox");
  for (let i = 0; i < Math.min(2, await boxes.count()); i++) await boxes.nth(i).check();
  // Checking scrolled the page: the picture starts at its title, the groups, then the selection.
  await page.evaluate("window.scrollTo(0, 0)");
}

/** A rep of the screenshot's own with a disputed deal, so the queue has something to show. */
async function openDispute(): Promise<void> {
  const rep = await ownRep("Sam Screenshot");
  await ownPlan("Screenshot plan", [rep]);
  const deal = await approvedDeal(rep, "Northwind expansion", 13250);
  const answer = await (await apiAs(rep))("POST", `/deals/${deal.id}/disputes`, {
    reason: "wrong_deal_type",
    description: "Booked as new business; it is an expansion of the 2025 contract at the expansion rate.",
    expected_amount: 1590,
  });
  expect(answer.status).toBe(201);
}

/** A draft payout run of two deals for a rep of the screenshot's own: finance reviewing it. */
let runId = "";
async function draftRun(): Promise<void> {
  const rep = await ownRep("Paula Payroll");
  await ownPlan("Payroll screenshot plan", [rep]);
  await approvedDeal(rep, "Initech renewal", 18400);
  await approvedDeal(rep, "Umbrella Corp expansion", 9650.5);
  const today = new Date().toISOString().slice(0, 10);
  runId = (
    await asAdmin<{ id: string }>("POST", "/payout-runs", { through: today, pay_date: today, user_ids: [rep.id] })
  ).id;
}

/** Rita's newest plan acknowledgement request (the seed assigned her plan): the document to read. */
let ackId = "";
async function ritasAcknowledgement(): Promise<void> {
  const mine = await (await apiAs(state().users.rita))<{ data: { id: string }[] }>("GET", "/me/plan-acknowledgements");
  ackId = mine.body.data[0]!.id;
}

// The README's pictures of the console, made by the e2e run at 1280×800 once each page shows its data.
const SHOTS = [
  { file: "console-home.png", who: "rita", path: () => "/" },
  { file: "console-deal.png", who: "rita", path: () => `/deals/${state().deals.ritaApproved}` },
  { file: "console-statement.png", who: "rita", path: () => `/statements/${state().period}` },
  { file: "console-team.png", who: "director", path: () => "/team" },
  { file: "console-plans.png", who: "admin", path: () => "/plans" },
  { file: "console-plan.png", who: "admin", path: () => `/plans/${state().planId}` },
  { file: "console-people.png", who: "admin", path: () => "/people" },
  { file: "console-spiffs.png", who: "admin", path: () => "/spiffs" },
  { file: "console-audit.png", who: "admin", path: () => "/audit" },
  { file: "console-request-log.png", who: "admin", path: () => "/request-log" },
  { file: "console-jobs.png", who: "admin", path: () => "/jobs" },
  {
    file: "console-dispute-queue.png",
    who: "admin",
    path: () => "/dispute-queue",
    before: openDispute,
    onPage: disputeBeingResolved,
  },
  { file: "console-payouts.png", who: "finance", path: () => "/payouts", onPage: payoutSelection },
  { file: "console-payout-run.png", who: "finance", path: () => `/payouts/runs/${runId}`, before: draftRun },
  { file: "console-accounting.png", who: "finance", path: () => "/accounting" },
  { file: "console-approvals.png", who: "admin", path: () => "/approvals" },
  { file: "console-deals.png", who: "rita", path: () => "/deals" },
  { file: "console-finance-home.png", who: "finance", path: () => "/" },
  { file: "console-admin-home.png", who: "admin", path: () => "/" },
  {
    file: "console-acknowledgement.png",
    who: "rita",
    path: () => `/acknowledgements/${ackId}`,
    before: ritasAcknowledgement,
  },
] as const;

for (const shot of SHOTS) {
  test(`screenshot ${shot.file}`, async ({ page, problems }) => {
    if ("before" in shot) await shot.before();
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, state().users[shot.who], shot.path());
    await settled(page);
    if ("onPage" in shot) await shot.onPage(page);
    await page.screenshot({ path: new URL(`../docs/${shot.file}`, import.meta.url).pathname });
    expect(problems).toEqual([]);
  });
}

// The impact of a change to the seed's plan before it is saved: previewing writes nothing (API.md §12).
test("screenshot console-plan-impact.png", async ({ page, problems }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, state().users.admin, `/plans/${state().planId}`);
  await settled(page);
  await page.getByRole("button", { name: "Edit terms" }).click();
  await page.getByRole("textbox", { name: "Tier 1 rate" }).fill("9");
  await page.getByRole("button", { name: "Preview impact" }).click();
  await settled(page);
  // The impact at the top of the picture, under the frame's header.
  await page
    .getByRole("heading", { name: "Impact of this change" })
    .evaluate((heading) => heading.ownerDocument.defaultView?.scrollBy(0, heading.getBoundingClientRect().top - 72));
  await page.mouse.move(0, 0);
  await page.screenshot({ path: new URL("../docs/console-plan-impact.png", import.meta.url).pathname });
  expect(problems).toEqual([]);
});

// The plan builder at work: a new tiered plan typed in percent, its bands read back in words, a
// multiplier. Taller than the others: the terms, the band table and the buttons in one picture.
test("screenshot console-plan-builder.png", async ({ page, problems }) => {
  await page.setViewportSize({ width: 1280, height: 1000 });
  await signIn(page, state().users.admin, "/plans");
  await settled(page);
  await page.getByRole("button", { name: "New plan" }).click();
  const builder = page.getByRole("dialog", { name: "New plan" });
  await builder.getByRole("textbox", { name: "Name", exact: true }).fill("Account Executives FY27");
  await builder.getByRole("textbox", { name: "Description" }).fill("Quarterly quota, accelerators above plan.");
  await builder.getByRole("textbox", { name: /^Quota per period/ }).fill("150000");
  await builder.getByRole("textbox", { name: /^Cap per period/ }).fill("60000");
  await builder.getByRole("textbox", { name: "Tier 1 rate" }).fill("10");
  await builder.getByRole("textbox", { name: "Tier 2 rate" }).fill("13");
  await builder.getByRole("button", { name: "Add a tier" }).click();
  await builder.getByRole("textbox", { name: "Tier 3 starts at" }).fill("150");
  await builder.getByRole("textbox", { name: "Tier 3 rate" }).fill("18.5");
  await builder.getByRole("button", { name: "Add a multiplier" }).click();
  await builder.getByRole("combobox", { name: "Multiplier 1 deal type" }).click();
  await page.getByRole("option", { name: "Renewal" }).click();
  await builder.getByRole("textbox", { name: "Multiplier 1 factor" }).fill("0.5");
  // From the quota down to the buttons, under the dialog's title.
  await builder
    .getByRole("heading", { name: "Quota, limits and dates" })
    .evaluate((heading) => heading.scrollIntoView({ block: "start" }));
  await page.mouse.move(0, 0);
  await page.screenshot({ path: new URL("../docs/console-plan-builder.png", import.meta.url).pathname });
  expect(problems).toEqual([]);
});

// The admin's API keys and webhooks, with records made here through the API (raw keys and secrets are
// discarded unread: no picture ever holds one).
test("screenshot console-api-keys.png", async ({ page, problems }) => {
  await asAdmin("POST", "/api-keys", { name: "Warehouse export", scope: "read" });
  const crm = await asAdmin("POST", "/api-keys", { name: "CRM sync", scope: "write" });
  await asAdmin("POST", `/api-keys/${crm.id}/rotate`, { grace_period_seconds: 3600 });
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, state().users.admin, "/api-keys");
  await settled(page);
  await page.screenshot({ path: new URL("../docs/console-api-keys.png", import.meta.url).pathname });
  expect(problems).toEqual([]);
});

test("screenshots console-webhooks.png and console-webhook.png", async ({ page, problems }) => {
  const receiver = await startReceiver();
  try {
    const subscription = await asAdmin("POST", "/webhook-subscriptions", {
      url: `${receiver.origin}/hooks/payroll`,
      events: ["deal.approved", "deal.paid"],
      description: "Payroll sync",
    });
    const deliveredTest = async () => {
      const event = await asAdmin("POST", `/webhook-subscriptions/${subscription.id}/test`);
      await receiver.waitFor((r) => r.headers["webhook-id"] === event.id);
      await expect
        .poll(async () => {
          const log = await asAdmin("GET", `/webhook-subscriptions/${subscription.id}/deliveries`);
          return log.data.find((d: any) => d.event_id === event.id)?.attempts.length ?? 0;
        })
        .toBe(1);
    };
    receiver.answer({ status: 200, body: '{"received":true}' });
    await deliveredTest();
    receiver.answer({
      status: 503,
      body: '{"error":"payroll is in its maintenance window"}',
      headers: { "Retry-After": "3600" },
    });
    await deliveredTest();

    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, state().users.admin, "/webhooks");
    await settled(page);
    await page.screenshot({ path: new URL("../docs/console-webhooks.png", import.meta.url).pathname });
    await page.goto(`/webhooks/${subscription.id}`);
    await settled(page);
    await page.locator("tr[data-delivery-id]").first().getByRole("button", { name: "Attempts" }).click();
    await page.screenshot({ path: new URL("../docs/console-webhook.png", import.meta.url).pathname });
    // Nothing listens there after this test: no later event may queue deliveries to it.
    await asAdmin("PATCH", `/webhook-subscriptions/${subscription.id}`, { status: "disabled" });
  } finally {
    await receiver.close();
  }
  expect(problems).toEqual([]);
});

// An import's dry run (API.md §19): a CRM export's columns matched by name, three rows with errors, the
// rest ready to import. A dry run writes nothing.
test("screenshot console-import.png", async ({ page, problems }) => {
  const [ana, ben] = [await ownRep("Ana Import"), await ownRep("Ben Import")];
  const names = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark", "Wayne", "Wonka", "Tyrell", "Cyberdyne"];
  const rows = Array.from({ length: 240 }, (_, i) => {
    const owner = i % 3 === 0 ? ben : ana;
    const amount = i === 2 ? "12.345" : (18000 + ((i * 1375) % 64000)).toFixed(2);
    const split = i === 6 ? `${ana.email};${ben.email},60;30` : ",";
    const close = i === 9 ? "2026-02-30" : `2026-0${1 + (i % 6)}-${String(1 + (i % 27)).padStart(2, "0")}`;
    return `SF-${String(1001 + i)},${names[i % names.length]} ${i % 2 ? "renewal" : "expansion"},${amount},USD,${close},${owner.email},${split}`;
  });
  const csv = [
    "Opportunity ID,Opportunity Name,Amount,Currency,Close Date,Owner Email,Split Emails,Split Percent",
    ...rows,
  ];
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, state().users.admin, "/imports");
  await settled(page);
  await page.locator('input[type="file"]').setInputFiles({
    name: "salesforce-opportunities.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(csv.join("\r\n")),
  });
  await page.getByRole("button", { name: "Check the file" }).click();
  await expect(page.getByTestId("import-outcome")).toBeVisible({ timeout: waitOf(30_000) });
  await settled(page);
  // The end of the column mapping above the check's counts and rows (the page scrolled to the check).
  await page
    .getByRole("heading", { name: "What the import will do" })
    .evaluate((heading) => heading.ownerDocument.defaultView?.scrollBy(0, heading.getBoundingClientRect().top - 330));
  await page.mouse.move(0, 0);
  await page.screenshot({ path: new URL("../docs/console-import.png", import.meta.url).pathname });
  expect(problems).toEqual([]);
});

// The deal form (issue #30): a new deal split between two reps, priced as typed; nothing is created.
test("screenshot console-deal-form.png", async ({ page, problems }) => {
  const maya = await ownRep("Maya Morgan");
  const theo = await ownRep("Theo Tran");
  await ownPlan("Mid-market AE plan", [maya, theo]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, state().users.admin, "/deals/new");
  await settled(page);
  const pick = async (label: string, option: string) => {
    await page.getByRole("combobox", { name: label, exact: true }).click();
    await page.getByRole("option", { name: option, exact: true }).first().click();
  };
  await page.getByRole("textbox", { name: "Opportunity name" }).fill("Northwind Traders — platform expansion");
  await pick("Owner", maya.name);
  await page.getByRole("textbox", { name: "ARR amount" }).fill("86400");
  await pick("Deal type", "Expansion");
  await page.getByRole("button", { name: "Split the credit" }).click();
  await pick("Person 2", theo.name);
  await page.getByRole("textbox", { name: "Share 1" }).fill("70");
  await page.getByRole("textbox", { name: "Share 2" }).fill("30");
  await page.getByRole("textbox", { name: "CRM id" }).fill("006Dn000004XyZ");
  await expect(page.locator('[data-testid="deal-preview"][data-state="current"]')).toBeVisible();
  await settled(page);
  // The picture starts at the page's title: typing in the last field scrolled it.
  await page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)");
  await page.mouse.move(0, 0);
  await page.screenshot({ path: new URL("../docs/console-deal-form.png", import.meta.url).pathname });
  expect(problems).toEqual([]);
});
