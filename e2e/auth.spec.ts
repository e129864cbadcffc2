import type { Page } from "@playwright/test";
import { asAdmin, type SeededUser, state } from "./api.js";
import { apiAs, expect, signInThroughForm, signOut, test } from "./fixtures.js";
import { invitedRep, postPublic, repWithPassword } from "./people.js";

const COMMON = "password1234";
const WEAK = "qwertyuiopasdfgh";

/** The estimator's hint in a 422 detail of the API (what follows "3 needed): "), API.md §20 (c). */
function hintOf(body: { error: { details: { param: string; message: string }[] } }, param: string): string {
  const message = body.error.details.find((d) => d.param === param)!.message;
  expect(message).toMatch(/^is too easy to guess \(strength [0-2] of 4, 3 needed\): /);
  return message.slice(message.indexOf("): ") + 3);
}

/** The sign-in form, filled and sent, without assuming where it leads. */
async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByRole("textbox", { name: "Password" }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("an invited person sets a password on the invitation page, lands signed in, and signs in again with it", async ({
  page,
  problems,
}) => {
  // Four argon2id hashes and three sign-ins: more work than the default timeout allows on a busy machine.
  test.slow();
  const { user, url } = await invitedRep("Ivy Invited");
  const token = new URL(url).hash.slice(1);
  // What the API says about a common password (it judges the password before the token, so any token shows it).
  const refused = await postPublic("/auth/invitations/accept", { token: "not-a-token", password: COMMON });
  expect(refused.status).toBe(422);
  const commonMessage = refused.body.error.details.find((d: { param: string }) => d.param === "password").message;

  await page.goto(url);
  await expect(page.getByRole("heading", { name: "Accept your invitation" })).toBeVisible();
  // The token is read, then taken out of the address bar and the history entry.
  await expect(page).toHaveURL(/\/invite$/);
  expect(new URL(page.url()).hash).toBe("");

  const rules = page.getByRole("list", { name: "Password rules" });
  const password = page.getByRole("textbox", { name: "Password", exact: true });
  await password.fill("short one");
  await expect(rules.getByRole("listitem").nth(0)).toContainText("have 12 to 256 characters (now 9) (not met yet)");
  await password.fill(COMMON);
  await expect(rules.getByRole("listitem").nth(0)).toContainText("have 12 to 256 characters (now 12) (met)");
  await expect(rules.getByRole("listitem").nth(1)).toContainText(
    "not contain your email address (checked when you save)",
  );
  await page.getByRole("textbox", { name: "Confirm password" }).fill(COMMON);
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  await expect(password).toHaveAccessibleDescription(`This password ${commonMessage}.`);

  // A weak password: the estimator's verdict and hint as it is typed, the API's words exactly.
  const weak = await postPublic("/auth/invitations/accept", { token: "not-a-token", password: WEAK });
  expect(weak.status).toBe(422);
  const strength = rules.getByRole("listitem").nth(3);
  await password.fill(WEAK);
  await expect(strength).toContainText("be hard to guess (strength 1 of 4, 3 needed) (not met yet)");
  await expect(strength).toContainText(hintOf(weak.body, "password"));
  await page.getByRole("textbox", { name: "Confirm password" }).fill(WEAK);
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  await expect(password).toHaveAccessibleDescription(`This password ${weak.body.error.details[0].message}`);

  const chosen = "ivy picks a quiet harbour 7";
  await password.fill(chosen);
  await expect(strength).toContainText("be hard to guess (strength 4 of 4, 3 needed) (met)");
  await page.getByRole("textbox", { name: "Confirm password" }).fill(chosen);
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  await expect(page).toHaveURL(/\/$/);
  const stored = await asAdmin("GET", `/users/${user.id}`);
  await expect(page.getByLabel("Signed in as")).toContainText(stored.name);

  await signOut(page);
  await signInThroughForm(page, { ...user, password: chosen }, "/");

  // The link works once: opened again, it says so in the API's words.
  const used = await postPublic("/auth/invitations/accept", { token, password: chosen });
  expect(used.status).toBe(404);
  await signOut(page);
  await page.goto(url);
  await password.fill(chosen);
  await page.getByRole("textbox", { name: "Confirm password" }).fill(chosen);
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  const alert = page.getByRole("alert");
  await expect(alert).toContainText("This invitation cannot be used");
  await expect(alert).toContainText(used.body.error.message);
  expect(problems).toEqual([]);
});

test("a session revoked while the console is open: the next page asks to sign in again, then opens", async ({
  page,
  problems,
}) => {
  const { period } = state();
  const rep = await repWithPassword("Sam Session", "sam keeps the night ledger");
  await signInThroughForm(page, rep, "/disputes");
  await expect(page).toHaveURL(/\/disputes$/);

  await asAdmin("POST", `/users/${rep.id}/sessions/revoke`);
  await page.getByRole("link", { name: "Statement" }).click();
  await expect(page).toHaveURL(/\/sign-in\?/);
  const search = new URL(page.url()).searchParams;
  // The menu's Statement is /statements, which opens the person's own plan period once signed in.
  expect([search.get("return_to"), search.get("reason")]).toEqual(["/statements", "expired"]);
  await expect(page.getByText("Your session ended. Sign in again to go on where you were.")).toBeVisible();

  await submitSignIn(page, rep.email, rep.password);
  await expect(page.getByLabel("Signed in as")).toContainText(rep.name);
  // Sam has no plan: the calendar quarter.
  await expect(page).toHaveURL(new RegExp(`/statements/${period}$`));
  expect(problems).toEqual([]);
});

test("a page opened without a session comes back with its query after signing in", async ({ page, problems }) => {
  const { period } = state();
  const rep = await repWithPassword("Quinn Query", "quinn reads every line twice");
  const deep = `/statements/${period}?user=${rep.id}`;
  await signInThroughForm(page, rep, deep);
  const url = new URL(page.url());
  expect([url.pathname, url.searchParams.get("user")]).toEqual([`/statements/${period}`, rep.id]);
  expect(problems).toEqual([]);
});

test("a password changed on the account page ends other sessions; the new one signs in, the old one no more", async ({
  page,
  problems,
}) => {
  const oldPassword = "cam walks the long canal";
  const rep = await repWithPassword("Cam Change", oldPassword);
  const elsewhere = await apiAs(rep);
  const me = (await elsewhere("GET", "/auth/session")).body.user as SeededUser;
  await signInThroughForm(page, rep, "/account");
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("heading", { name: "Account" })).toBeVisible();
  for (const value of [me.name, me.email]) await expect(page.getByText(value, { exact: true })).toBeVisible();
  await expect(page.getByText(new RegExp(`^${me.role}$`, "i"))).toBeVisible();

  // A wrong current password: the API's 403, on the field, and nothing changed.
  const wrong = await elsewhere("POST", "/auth/password", {
    current_password: "not my password at all",
    new_password: "cam takes the high road now",
  });
  expect(wrong.status).toBe(403);
  const current = page.getByRole("textbox", { name: "Current password" });
  const fresh = page.getByRole("textbox", { name: "New password", exact: true });
  const newPassword = "cam takes the high road now";
  await current.fill("not my password at all");
  await fresh.fill(newPassword);
  await page.getByRole("textbox", { name: "Confirm new password" }).fill(newPassword);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(current).toHaveAccessibleDescription(wrong.body.error.message);

  // A guessable new password: the page says why as it is typed, in the words the API refuses it with.
  const guessable = "1234567890ab";
  const weak = await elsewhere("POST", "/auth/password", { current_password: oldPassword, new_password: guessable });
  expect(weak.status).toBe(422);
  const strength = page.getByRole("list", { name: "Password rules" }).getByRole("listitem").nth(3);
  await fresh.fill(guessable);
  await expect(strength).toContainText("(not met yet)");
  await expect(strength).toContainText(hintOf(weak.body, "new_password"));
  await fresh.fill(newPassword);
  await expect(strength).toContainText("(met)");

  await current.fill(oldPassword);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status")).toContainText("Your other sessions were ended");
  expect((await elsewhere("GET", "/auth/session")).status).toBe(401);

  await signOut(page);
  const refused = await postPublic("/auth/login", { email: rep.email, password: oldPassword });
  expect(refused.status).toBe(401);
  await submitSignIn(page, rep.email, oldPassword);
  await expect(page.getByRole("alert")).toHaveText(refused.body.error.message);
  await signInThroughForm(page, { ...rep, password: newPassword }, "/account");
  expect(problems).toEqual([]);
});
