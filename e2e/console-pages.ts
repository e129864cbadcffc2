import type { Page } from "@playwright/test";
import { asAdmin, type SeededUser, state } from "./api.js";
import { apiAs, expect, signIn } from "./fixtures.js";
import { settled } from "./settle.js";
import { closedPort } from "./webhook-receiver.js";
import { approvedDeal, ownPlan, ownRep } from "./workbench-data.js";

// Every console page, opened by someone allowed to see it: the accessibility, title and narrow-screen
// specs walk this one list.

export type Who = keyof ReturnType<typeof state>["users"] | null;

/** An open dispute of the spec's own, with the queue's lines and resolve form opened: every part of the page is checked. */
async function disputeToResolve(): Promise<void> {
  const rep = await ownRep("Axel Accessible");
  await ownPlan("Accessibility plan", [rep]);
  const deal = await approvedDeal(rep, "Accessible Ltd upsell", 9100);
  const answer = await (await apiAs(rep))("POST", `/deals/${deal.id}/disputes`, {
    reason: "other",
    expected_amount: 1000,
  });
  expect(answer.status).toBe(201);
}

async function openResolveForm(page: Page): Promise<void> {
  const card = page.getByTestId("queue-dispute").first();
  await card.getByRole("button", { name: /^Show lines/ }).click();
  await card.getByRole("button", { name: "Resolve" }).click();
  await card.getByRole("radio", { name: "Partially approved" }).check();
}

/** The deal form saved empty: every field's problem in words, in its colours. */
async function tryEmptyDeal(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Create deal" }).click();
  await expect(page.getByText("Pick who owns the deal.")).toBeVisible();
}

/** What-if priced for the capped rep: the cap's headline on the page. */
async function previewCapped(page: Page): Promise<void> {
  await page.getByRole("textbox", { name: "ARR amount" }).fill("12000");
  await page.getByRole("button", { name: "Preview commission" }).click();
  await expect(page.getByTestId("cap-headline")).toBeVisible();
}

/** The plan builder over the plans page, after a try to save it blank: every field's problem in words shown. */
async function openPlanBuilder(page: Page): Promise<void> {
  await page.getByRole("button", { name: "New plan" }).click();
  const builder = page.getByRole("dialog", { name: "New plan" });
  await builder.getByRole("button", { name: "Add a multiplier" }).click();
  await builder.getByRole("button", { name: "Save as draft" }).click();
  await expect(builder.getByTestId("plan-problems")).toBeVisible();
}

/** The import page with a file chosen, a column mapped by hand and its check answered (a row with an error). */
async function checkedImport(page: Page): Promise<void> {
  const { rita } = state().users;
  const csv = [
    "Deal Ref,opportunity_name,Amount,close_date,owner_id",
    `A11Y-1,Accessible one,12.345,2025-01-01,${rita.email}`,
    `A11Y-2,Accessible two,10.00,2025-01-02,${rita.email}`,
  ].join("\n");
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: "a11y.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("combobox", { name: "Import the column Deal Ref as" }).selectOption("external_id");
  await page.getByRole("button", { name: "Check the file" }).click();
  await expect(page.getByTestId("import-outcome")).toBeVisible();
}

/** The spec's own draw opened from its row: its drawer, with the periods, the balance and finance's actions. */
async function openTheDraw(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Open the draw of Dora Drawn" }).click();
  await expect(page.getByRole("dialog", { name: "Draw" }).getByTestId("draw-balance")).toBeVisible();
}

/** A rate set with a 0-, a 2- and a 3-decimal currency, dated before any deal (it reprices nothing). */
async function aRateSet(): Promise<void> {
  await asAdmin("PUT", "/exchange-rates/2018-06-01", {
    base: "USD",
    rates: { EUR: "0.8573", JPY: "110.52", KWD: "0.30215", GBP: "0.7498" },
  });
}

/** Every console page, opened by someone allowed to see it; null = signed out. */
export const PAGES: {
  name: string;
  who: Who;
  path: () => string | Promise<string>;
  /** Makes the data the page needs (through the API), before it opens. */
  before?: () => Promise<void>;
  /** Opens what the page hides at first, so axe sees it. */
  onPage?: (page: Page) => Promise<void>;
}[] = [
  { name: "sign-in", who: null, path: () => "/sign-in" },
  { name: "invite", who: null, path: () => "/invite#inv_dummy-token-for-the-accessibility-check" },
  { name: "forgot-password", who: null, path: () => "/forgot-password" },
  { name: "reset-password", who: null, path: () => "/reset-password#dummy-token-for-the-accessibility-check" },
  { name: "home", who: "rita", path: () => "/" },
  { name: "home (finance)", who: "finance", path: () => "/" },
  { name: "home (manager)", who: "director", path: () => "/" },
  { name: "home (admin)", who: "admin", path: () => "/" },
  { name: "home (capped)", who: "capped", path: () => "/" },
  { name: "deals", who: "rita", path: () => "/deals" },
  { name: "deals (admin)", who: "admin", path: () => "/deals" },
  { name: "deal", who: "rita", path: () => `/deals/${state().deals.ritaApproved}` },
  { name: "new deal", who: "admin", path: () => "/deals/new", onPage: tryEmptyDeal },
  { name: "edit deal", who: "admin", path: () => `/deals/${state().deals.ritaPending}/edit` },
  { name: "statement", who: "rita", path: () => `/statements/${state().period}` },
  { name: "statement (yearly)", who: "yearly", path: () => "/statements" },
  { name: "what-if", who: "rita", path: () => "/what-if" },
  { name: "what-if (capped)", who: "capped", path: () => "/what-if", onPage: previewCapped },
  { name: "disputes", who: "rita", path: () => "/disputes" },
  { name: "acknowledgements", who: "rita", path: () => "/acknowledgements" },
  { name: "acknowledgement", who: "rita", path: async () => `/acknowledgements/${await ritasAcknowledgement()}` },
  { name: "plan-acknowledgements", who: "finance", path: () => "/plan-acknowledgements" },
  { name: "team", who: "director", path: () => "/team" },
  { name: "account", who: "rita", path: () => "/account" },
  { name: "approvals", who: "admin", path: () => "/approvals" },
  { name: "person", who: "director", path: () => `/people/${state().users.rita.id}` },
  { name: "plans", who: "admin", path: () => "/plans" },
  { name: "plans (the plan builder open)", who: "admin", path: () => "/plans", onPage: openPlanBuilder },
  { name: "plan", who: "admin", path: () => `/plans/${state().planId}` },
  { name: "plan (finance)", who: "finance", path: () => `/plans/${state().planId}` },
  { name: "people", who: "admin", path: () => "/people" },
  { name: "spiffs", who: "admin", path: () => "/spiffs" },
  { name: "imports", who: "admin", path: () => "/imports", onPage: checkedImport },
  { name: "audit", who: "admin", path: () => "/audit" },
  { name: "request-log", who: "admin", path: () => "/request-log" },
  { name: "jobs", who: "admin", path: () => "/jobs" },
  {
    name: "dispute-queue",
    who: "admin",
    path: () => "/dispute-queue",
    before: disputeToResolve,
    onPage: openResolveForm,
  },
  { name: "payouts", who: "finance", path: () => "/payouts" },
  { name: "accounting", who: "finance", path: () => "/accounting" },
  // The list with a settled draw in it; then that draw open in its drawer (its periods, balance and actions).
  { name: "draws", who: "finance", path: () => "/draws", before: async () => void (await a11yDraw()) },
  {
    name: "draws (a draw open)",
    who: "finance",
    // Filtered to the spec's own Dora: a worker started again after a failure has a second one.
    path: async () => `/draws?user=${(await a11yDraw()).userId}`,
    onPage: openTheDraw,
  },
  { name: "exchange-rates", who: "admin", path: () => "/exchange-rates", before: aRateSet },
  { name: "api-keys", who: "admin", path: () => "/api-keys" },
  { name: "webhooks", who: "admin", path: () => "/webhooks" },
  { name: "webhook", who: "admin", path: async () => `/webhooks/${await a11yWebhook()}` },
  { name: "not-found", who: "rita", path: () => `/deals/${state().deals.paulaApproved}` },
  { name: "unknown address", who: "rita", path: () => "/nope" },
  { name: "statement of no period", who: "rita", path: () => "/statements/garbage" },
];

/** Rita's newest plan acknowledgement request (the seed assigned her plan): the page of one to read. */
async function ritasAcknowledgement(): Promise<string> {
  const mine = await (await apiAs(state().users.rita))<{ data: { id: string }[] }>("GET", "/me/plan-acknowledgements");
  return mine.body.data[0]!.id;
}

let drawOfDora: Promise<{ id: string; userId: string }> | undefined;
/**
 * A recoverable draw of a rep of the spec's own (no other spec's run takes them), in months long past,
 * its first month settled by a finalized run: the list shows it with a balance.
 */
function a11yDraw(): Promise<{ id: string; userId: string }> {
  drawOfDora ??= (async () => {
    const rep = await ownRep("Dora Drawn");
    const draw = await asAdmin("POST", "/draws", {
      user_id: rep.id,
      kind: "recoverable",
      amount: 1200,
      currency: "USD",
      period: "month",
      starts_on: "2018-01-01",
      ends_on: "2018-02-28",
    });
    const run = await asAdmin("POST", "/payout-runs", {
      through: "2018-01-31",
      pay_date: "2018-02-05",
      user_ids: [rep.id],
    });
    await asAdmin("POST", `/payout-runs/${run.id}/finalize`);
    return { id: draw.id as string, userId: rep.id };
  })();
  return drawOfDora;
}

let webhookId: Promise<string> | undefined;
/**
 * A subscription with a delivery in its log, for the webhook page's check: to a loopback port nothing
 * listens on (e2e/global-setup.ts exempts 127.0.0.1), so its test delivery fails and offers "Retry now".
 */
function a11yWebhook(): Promise<string> {
  webhookId ??= (async () => {
    const port = await closedPort();
    const created = await asAdmin("POST", "/webhook-subscriptions", {
      url: `http://127.0.0.1:${port}/a11y`,
      events: ["webhook.test"],
      description: "E2E accessibility check",
    });
    await asAdmin("POST", `/webhook-subscriptions/${created.id}/test`);
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const log = await asAdmin("GET", `/webhook-subscriptions/${created.id}/deliveries`);
      if (log.data[0]?.attempts.length > 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    return created.id as string;
  })();
  return webhookId;
}

/**
 * Signs in as the page's person (or stays signed out) and opens it, with what it hides opened. Gives
 * back a function that opens it again in the same session (another width, say).
 */
export async function openPage(page: Page, target: (typeof PAGES)[number]): Promise<() => Promise<void>> {
  await target.before?.();
  const who: SeededUser | undefined = target.who ? state().users[target.who] : undefined;
  const path = await target.path();
  const shown = async () => {
    await settled(page);
    await target.onPage?.(page);
  };
  if (who) await signIn(page, who, path);
  else await page.goto(path);
  await shown();
  return async () => {
    await page.goto(path);
    await shown();
  };
}
