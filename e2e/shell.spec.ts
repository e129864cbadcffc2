import { state } from "./api.js";
import { expect, signInThroughForm, signOut, test } from "./fixtures.js";

test("the console is served under its CSP, and a person signs in and out", async ({ page, problems }) => {
  const { users } = state();
  const response = await page.goto("/");
  expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
  // No session: the page asks for one, keeping where the person wanted to go.
  await expect(page).toHaveURL(/\/sign-in\?return_to=%2F/);
  await signInThroughForm(page, users.rita, "/");
  await expect(page).toHaveURL(/\/$/);
  await signOut(page);
  expect(problems).toEqual([]);
});

test("a wrong password shows the API's message and signs nobody in", async ({ page, problems }) => {
  const { users } = state();
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(users.rita.email);
  await page.getByRole("textbox", { name: "Password" }).fill("not the password at all");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText("Email or password is wrong");
  expect(problems).toEqual([]);
});
