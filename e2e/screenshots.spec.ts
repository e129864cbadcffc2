import { asAdmin, state } from "./api.js";
import { expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";
import { startReceiver } from "./webhook-receiver.js";

// The README's pictures of the console, made by the e2e run at 1280×800 once each page shows its data.
const SHOTS = [
  { file: "console-home.png", who: "rita", path: () => "/" },
  { file: "console-deal.png", who: "rita", path: () => `/deals/${state().deals.ritaApproved}` },
  { file: "console-statement.png", who: "rita", path: () => `/statements/${state().period}` },
  { file: "console-team.png", who: "director", path: () => "/team" },
] as const;

for (const shot of SHOTS) {
  test(`screenshot ${shot.file}`, async ({ page, problems }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, state().users[shot.who], shot.path());
    await settled(page);
    await page.screenshot({ path: new URL(`../docs/${shot.file}`, import.meta.url).pathname });
    expect(problems).toEqual([]);
  });
}

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
