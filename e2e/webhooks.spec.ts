import { Webhook } from "standardwebhooks";
import { asAdmin, state } from "./api.js";
import { seriousViolations } from "./axe.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";
import { waitOf } from "./waits.js";
import { type Receiver, startReceiver } from "./webhook-receiver.js";

// Signing secrets pass through these tests: no trace or failure screenshot may hold one.
test.use({ locale: "en-US", trace: "off", screenshot: "off" });

const dateTime = (timestamp: string) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" }).format(new Date(timestamp));

let receiver: Receiver;
/** This spec's subscriptions, deleted after each test: nothing listens at their URLs afterwards. */
const made: string[] = [];
test.beforeEach(async () => {
  receiver = await startReceiver();
});
test.afterEach(async () => {
  for (const id of made.splice(0)) await asAdmin("DELETE", `/webhook-subscriptions/${id}`);
  await receiver.close();
});

/** Verifies a received request as a receiver would (standardwebhooks, API.md §6); the event it carried. */
function verified(secret: string, request: { headers: Record<string, unknown>; body: string }) {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
  return new Webhook(secret).verify(request.body, headers) as { id: string; type: string; data: { object: any } };
}

/** Creates a subscription through the dialog and returns its id and the secret shown once. */
async function createThroughPage(page: import("@playwright/test").Page, url: string, description: string) {
  await page.getByRole("button", { name: "New subscription" }).click();
  const dialog = page.getByRole("dialog", { name: "New webhook subscription" });
  await dialog.getByLabel("Endpoint URL").fill(url);
  await dialog.getByRole("checkbox", { name: "deal.approved" }).check();
  await dialog.getByLabel("Description").fill(description);
  await dialog.getByRole("button", { name: "Create subscription" }).click();
  const shown = page.getByRole("dialog", { name: "Your signing secret" });
  await expect(shown.getByText("you will not see it again")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  const secret = (await shown.getByTestId("one-time-secret").textContent())!.trim();
  await shown.getByRole("button", { name: "I have stored it" }).click();
  await expect(page).toHaveURL(/\/webhooks\/whsub_/);
  const id = new URL(page.url()).pathname.split("/").at(-1)!;
  made.push(id);
  return { id, secret };
}

test("a subscription to a local receiver: a refused URL on its field, the secret once, a signed test in the log", async ({
  page,
  problems,
}) => {
  const admin = await apiAs(state().users.admin);
  const before = (await admin("GET", "/webhook-subscriptions?per_page=1")).body.meta.total;
  await signIn(page, state().users.admin, "/webhooks");
  await settled(page);

  // A private address: the server's 422 shows on the URL field, and nothing is created.
  await page.getByRole("button", { name: "New subscription" }).click();
  const dialog = page.getByRole("dialog", { name: "New webhook subscription" });
  await dialog.getByLabel("Endpoint URL").fill("https://10.20.30.40/hooks");
  await dialog.getByRole("checkbox", { name: "All events" }).check();
  await dialog.getByRole("button", { name: "Create subscription" }).click();
  const refused = await admin("POST", "/webhook-subscriptions", { url: "https://10.20.30.40/hooks", events: ["*"] });
  expect(refused.status).toBe(422);
  expect(refused.body.error.code).toBe("validation_error");
  const message = refused.body.error.details.find((d: any) => d.param === "url").message;
  expect(message).toContain("10.20.30.40");
  await expect(dialog.getByLabel("Endpoint URL")).toHaveAccessibleDescription(new RegExp(literal(message)));
  expect((await admin("GET", "/webhook-subscriptions?per_page=1")).body.meta.total).toBe(before);
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole("button", { name: "Cancel" }).click();

  const description = `E2E receiver ${Date.now()}`;
  const url = `${receiver.origin}/hooks/e2e`;
  const { id, secret } = await createThroughPage(page, url, description);
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
  expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);
  expect(page.url().endsWith(`/webhooks/${id}`)).toBe(true);
  const created = (await admin("GET", `/webhook-subscriptions/${id}`)).body;
  expect(created).toMatchObject({ url, description, events: ["deal.approved"], status: "active" });
  expect(secret.endsWith(created.secret_hint.slice(-4))).toBe(true);
  expect((await page.content()).includes(secret), "the secret is not on the page after closing").toBe(false);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(url);
  await expect(page.getByText(created.secret_hint)).toBeVisible();

  // Send a test: the receiver gets a request signed with the secret shown once.
  receiver.answer({ status: 200, body: '{"ok":true,"receiver":"e2e"}' });
  await page.getByRole("button", { name: "Send test" }).click();
  const queued = page.getByRole("status").filter({ hasText: "Test event" });
  await expect(queued).toContainText(/evt_\w+/);
  const eventId = (await queued.locator("code").textContent())!.trim();
  const request = await receiver.waitFor((r) => r.headers["webhook-id"] === eventId);
  expect(request.path).toBe("/hooks/e2e");
  const event = verified(secret, request);
  expect(event).toMatchObject({ id: eventId, type: "webhook.test", data: { object: { id } } });
  expect(() => verified(`whsec_${Buffer.alloc(32, 7).toString("base64")}`, request)).toThrow();

  // The delivery in the log, as the API has it.
  const row = page.locator("tr[data-delivery-id]").first();
  await expect(row.locator('[data-col="status"]')).toHaveText("succeeded", { timeout: waitOf(15_000) });
  const deliveries = (await admin("GET", `/webhook-subscriptions/${id}/deliveries`)).body;
  expect(deliveries.meta.total).toBe(1);
  const delivery = deliveries.data[0];
  expect(delivery).toMatchObject({ event_id: eventId, event_type: "webhook.test", status: "succeeded" });
  expect(delivery.attempts).toHaveLength(1);
  expect(delivery.attempts[0]).toMatchObject({ response_status: 200, response_body: '{"ok":true,"receiver":"e2e"}' });
  await expect(row).toHaveAttribute("data-delivery-id", delivery.id);
  await expect(row.locator('[data-col="event"]')).toContainText(`webhook.test${eventId}`);
  await expect(row.locator('[data-col="attempts"]')).toHaveText("1");
  await expect(row.locator('[data-col="response"]')).toHaveText("HTTP 200");
  await expect(row.locator('[data-col="next"]')).toHaveText("—");
  await row.getByRole("button", { name: "Attempts" }).click();
  await expect(row.getByRole("button", { name: "Attempts" })).toHaveAttribute("aria-expanded", "true");
  const attempt = page.locator(`#attempts-${delivery.id} [data-attempt="1"]`);
  await expect(attempt.locator('[data-col="attempt-status"]')).toHaveText("HTTP 200");
  await expect(attempt.locator('[data-col="attempt-body"]')).toHaveText('{"ok":true,"receiver":"e2e"}');
  expect(await seriousViolations(page)).toEqual([]); // the log with a delivery's attempts open
  expect(problems).toEqual([]);
});

test("a refused delivery shows its status, body and next retry; retry now delivers it; rotate, edit and disable", async ({
  page,
  problems,
}) => {
  const admin = await apiAs(state().users.admin);
  await signIn(page, state().users.admin, "/webhooks");
  await settled(page);
  const { id } = await createThroughPage(page, `${receiver.origin}/hooks/retry`, `E2E retry ${Date.now()}`);

  // 429 with Retry-After an hour: the delivery waits (API.md §6), so only "Retry now" brings it back sooner.
  receiver.answer({ status: 429, body: "slow down, e2e receiver busy", headers: { "Retry-After": "3600" } });
  await page.getByRole("button", { name: "Send test" }).click();
  const row = page.locator("tr[data-delivery-id]").first();
  await expect(row.locator('[data-col="response"]')).toHaveText("HTTP 429", { timeout: waitOf(15_000) });
  const waiting = (await admin("GET", `/webhook-subscriptions/${id}/deliveries`)).body.data[0];
  expect(waiting).toMatchObject({ status: "pending", attempts: [{ response_status: 429 }] });
  expect(Date.parse(waiting.next_attempt_at) - Date.now()).toBeGreaterThan(50 * 60_000);
  await expect(row.locator('[data-col="status"]')).toHaveText("pending");
  await expect(row.locator('[data-col="next"]')).toHaveText(dateTime(waiting.next_attempt_at));
  await row.getByRole("button", { name: "Attempts" }).click();
  await expect(page.locator(`#attempts-${waiting.id} [data-col="attempt-body"]`)).toHaveText(
    "slow down, e2e receiver busy",
  );

  receiver.answer({ status: 204, body: "" });
  const retried = page.waitForResponse((r) => r.url().endsWith(`/webhook-deliveries/${waiting.id}/retry`));
  await row.getByRole("button", { name: /^Retry now/ }).click();
  expect((await retried).status()).toBe(200);
  await expect(row.locator('[data-col="status"]')).toHaveText("succeeded", { timeout: waitOf(15_000) });
  const delivered = (await admin("GET", `/webhook-subscriptions/${id}/deliveries`)).body.data[0];
  expect(delivered.attempts.map((a: any) => a.response_status)).toEqual([429, 204]);
  await expect(row.locator('[data-col="attempts"]')).toHaveText("2");
  await expect(row.locator('[data-col="response"]')).toHaveText("HTTP 204");

  // Rotate the secret: the new one once; the next delivery verifies with it (and carries the old one's too).
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await page
    .getByRole("dialog", { name: "Rotate the signing secret?" })
    .getByRole("button", { name: "Rotate secret" })
    .click();
  const shown = page.getByRole("dialog", { name: "The new signing secret" });
  const rotatedSecret = (await shown.getByTestId("one-time-secret").textContent())!.trim();
  const rotated = (await admin("GET", `/webhook-subscriptions/${id}`)).body;
  await expect(shown).toContainText(`Until ${dateTime(rotated.previous_secret_expires_at)}`);
  await shown.getByRole("button", { name: "I have stored it" }).click();
  expect((await page.content()).includes(rotatedSecret), "the new secret is not on the page after closing").toBe(false);
  await expect(page.getByText(rotated.secret_hint)).toBeVisible();
  // The first test's status is still shown until this one answers: take the id from this answer.
  const sent = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith(`/${id}/test`));
  await page.getByRole("button", { name: "Send test" }).click();
  const eventId: string = (await (await sent).json()).id;
  await expect(page.getByRole("status").filter({ hasText: "Test event" }).locator("code")).toHaveText(eventId);
  const request = await receiver.waitFor((r) => r.headers["webhook-id"] === eventId);
  expect(String(request.headers["webhook-signature"]).split(" ")).toHaveLength(2);
  expect(verified(rotatedSecret, request).id).toBe(eventId);

  // Edit the events; disable and enable again: each as the API then has it.
  await page.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: "Edit subscription" });
  await edit.getByRole("checkbox", { name: "deal.paid" }).check();
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toHaveCount(0);
  expect((await admin("GET", `/webhook-subscriptions/${id}`)).body.events).toEqual(["deal.approved", "deal.paid"]);
  await expect(page.getByText("deal.approved, deal.paid")).toBeVisible();
  await page.getByRole("button", { name: "Disable" }).click();
  await expect(page.getByRole("button", { name: "Enable" })).toBeVisible();
  expect((await admin("GET", `/webhook-subscriptions/${id}`)).body.status).toBe("disabled");
  await expect(page.getByRole("button", { name: "Send test" })).toHaveCount(0);
  await page.getByRole("button", { name: "Enable" }).click();
  await expect(page.getByRole("button", { name: "Send test" })).toBeVisible();
  expect((await asAdmin("GET", `/webhook-subscriptions/${id}`)).status).toBe("active");
  expect(problems).toEqual([]);
});

/** A string as a literal inside a RegExp. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
