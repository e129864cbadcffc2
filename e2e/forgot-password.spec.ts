import { expect, signOut, test } from "./fixtures.js";
import { adminOf, type MailService, postPublicTo, startMailService } from "./mail-service.js";

// Issue #34: "Forgot password?" in the console, the link read from the message a real SMTP server
// received, a new password set, signed in; the old password refused. Its own `cts serve` with email
// configured (e2e/mail-service.ts): the shared servers keep answering invitation links to copy. Then
// the account page's email switches, held to GET /me/notifications.

const OLD = "the old lighthouse keeper sings 41";
const NEW = "a brand new kettle whistles twice 58";

let service: MailService | undefined;

test.afterAll(async () => {
  await service?.stop();
});

/** The link in a message, on the service's public origin. */
function linkIn(text: string, origin: string, path: string): string {
  const link = new RegExp(`${origin.replace(/[.]/g, "\\.")}${path}#[A-Za-z0-9_-]+`).exec(text)?.[0];
  if (!link) throw new Error(`no ${path} link in:\n${text}`);
  return link;
}

test("Forgot password?: the emailed link sets a new password and signs in; the old password is refused", async ({
  page,
  problems,
}) => {
  // A server of its own to start, two argon2id hashes, three sign-ins and two messages through SMTP.
  test.slow();
  service = await startMailService();
  const { origin, smtp, mailTo } = service;
  const admin = adminOf(service);

  // A person invited by email (the invitation's link read from its message), with a password.
  const email = `fern.${Date.now()}@e2e.example.com`;
  const user = await admin("POST", "/users", { name: "Fern Forgetful", email, role: "admin" });
  await admin("POST", `/users/${user.id}/invitations`);
  const invitation = await mailTo(email, "You are invited to the Commission Tracking Service");
  const inviteToken = new URL(linkIn(invitation.text, origin, "/invite")).hash.slice(1);
  const accepted = await postPublicTo(origin, "/auth/invitations/accept", { token: inviteToken, password: OLD });
  expect(accepted.status).toBe(200);

  // The sign-in page offers "Forgot password?" because the service says it can send the link.
  const methods = (await (await fetch(`${origin}/api/v1/auth/methods`)).json()) as { password_reset: boolean };
  expect(methods.password_reset).toBe(true);
  await page.goto(`${origin}/sign-in`);
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(`${origin}/forgot-password`);
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();

  // The answer is the API's one 202, whatever the email: here an unknown one, asked from Node.
  const same = await postPublicTo(origin, "/auth/password-reset", { email: "nobody.here@e2e.example.com" });
  expect(same.status).toBe(202);
  const before = smtp.received.length;
  await page.getByLabel("Email").fill(email.toUpperCase());
  await page.getByRole("button", { name: "Email me a link" }).click();
  await expect(page.getByTestId("reset-requested")).toHaveText(`Check your email${same.body.message}`);

  const message = await mailTo(email, "Reset your password", before);
  expect(message.to).toEqual([email]);
  expect(smtp.received.filter((m) => m.to.includes("nobody.here@e2e.example.com"))).toEqual([]);
  const link = linkIn(message.text, origin, "/reset-password");

  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  // The token is read, then taken out of the address bar and the history entry.
  await expect(page).toHaveURL(`${origin}/reset-password`);
  const rules = page.getByRole("list", { name: "Password rules" });
  await page.getByRole("textbox", { name: "New password", exact: true }).fill(NEW);
  await expect(rules.getByRole("listitem").nth(0)).toContainText(`have 12 to 256 characters (now ${NEW.length}) (met)`);
  await page.getByRole("textbox", { name: "Confirm new password" }).fill(NEW);
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  await expect(page).toHaveURL(`${origin}/`);
  await expect(page.getByLabel("Signed in as")).toContainText("Fern Forgetful");

  // The old password is refused, in the API's words on the sign-in page; the new one signs in.
  const refused = await postPublicTo(origin, "/auth/login", { email, password: OLD });
  expect(refused.status).toBe(401);
  await signOut(page);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("textbox", { name: "Password" }).fill(OLD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText(refused.body.error.message);
  await page.getByRole("textbox", { name: "Password" }).fill(NEW);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByLabel("Signed in as")).toContainText("Fern Forgetful");

  // The link worked once: opened again, the page says why in the API's words and offers a new one.
  await signOut(page);
  await page.goto(link);
  await page.getByRole("textbox", { name: "New password", exact: true }).fill(`${NEW} again`);
  await page.getByRole("textbox", { name: "Confirm new password" }).fill(`${NEW} again`);
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  const used = page.getByTestId("reset-link-refused");
  const again = await postPublicTo(origin, "/auth/password-reset/confirm", {
    token: new URL(link).hash.slice(1),
    password: `${NEW} again`,
  });
  expect(again.status).toBe(404);
  await expect(used).toContainText(again.body.error.message);
  await used.getByRole("link", { name: "Ask for a new link" }).click();
  await expect(page).toHaveURL(`${origin}/forgot-password`);

  // Signed in again, the account page's switches are the API's settings; one turned off is saved.
  await page.goto(`${origin}/sign-in`);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("textbox", { name: "Password" }).fill(NEW);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByLabel("Signed in as")).toContainText("Fern Forgetful");
  await page.goto(`${origin}/account`);
  const card = page.getByTestId("notification-settings");
  await expect(card.getByTestId("email-not-configured")).toHaveCount(0);
  await expect(card.getByRole("switch", { name: /^Password reset links/ })).toBeDisabled();
  await expect(card.getByRole("switch", { name: /^Password reset links/ })).toBeChecked();
  await expect(card.getByRole("switch", { name: /^Deal approved/ })).toBeChecked();
  await card.getByRole("switch", { name: /^Deal approved/ }).uncheck();
  const saved = page.waitForResponse(
    (r) => r.url().endsWith("/api/v1/me/notifications") && r.request().method() === "POST",
  );
  await card.getByRole("button", { name: "Save notification settings" }).click();
  expect((await saved).status()).toBe(200);
  await expect(card.getByRole("status")).toContainText("Saved");
  await expect(card.getByRole("switch", { name: /^Deal approved/ })).not.toBeChecked();
  const cookies = await page.context().cookies(origin);
  const settings = (await (
    await fetch(`${origin}/api/v1/me/notifications`, {
      headers: { Cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; ") },
    })
  ).json()) as { kinds: { kind: string; enabled: boolean; switchable: boolean }[] };
  expect(settings.kinds.find((k) => k.kind === "deal_approved")).toEqual({
    kind: "deal_approved",
    enabled: false,
    switchable: true,
  });
  const switches = card.getByRole("switch");
  await expect(switches).toHaveCount(settings.kinds.length);
  const shown = [];
  for (let i = 0; i < settings.kinds.length; i++) {
    shown.push({ checked: await switches.nth(i).isChecked(), disabled: await switches.nth(i).isDisabled() });
  }
  expect(shown).toEqual(settings.kinds.map((k) => ({ checked: k.enabled, disabled: !k.switchable })));

  expect(problems).toEqual([]);
});
