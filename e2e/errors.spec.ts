import type { Page, Request } from "@playwright/test";
import { state } from "./api.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";
import { waitOf } from "./waits.js";

// Errors stay in the console: an unknown address, an address whose parameter is not one, and a server
// that does not answer each show a state of the console's own, inside its frame, with the menu kept.

const menu = (page: Page) => page.getByRole("navigation", { name: "Pages" });

/** The requests a page makes to the API, as paths with their query. */
function apiRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/v1/")) seen.push(url.pathname + url.search);
  });
  return seen;
}

/** What the browser reports when the test itself cuts the network: expected here, anything else is not. */
const unexpected = (problems: string[]) =>
  problems.filter((p) => !p.includes("ERR_INTERNET_DISCONNECTED") && !p.includes("The server cannot be reached"));

test("an unknown address is the console's not-found page, after signing in, with the menu", async ({
  page,
  problems,
}) => {
  const { users } = state();
  const response = await page.goto("/nope");
  // The server answers an unknown page a browser opens with the console (404), never the API's JSON.
  expect(response?.status()).toBe(404);
  expect(response?.headers()["content-type"]).toContain("text/html");
  await expect(page).toHaveURL(/\/sign-in\?return_to=%2Fnope/);
  await signIn(page, users.rita, "/nope");
  await expect(page).toHaveURL(/\/nope$/);
  await expect(page.getByRole("heading", { level: 1, name: "This page does not exist" })).toBeVisible();
  await expect(menu(page).getByRole("link", { name: "Home" })).toBeVisible();
  await expect(page).toHaveTitle("Page not found · Commission Tracking");

  for (const path of ["/deals/x/y", "/people/usr_1/deals", "/statements/2026-Q3/lines"]) {
    const answer = await page.goto(path);
    expect(answer?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "This page does not exist" })).toBeVisible();
    await expect(menu(page)).toBeVisible();
    await expect(page.locator("body")).not.toContainText("This endpoint");
  }
  // Home is one click away.
  await menu(page).getByRole("link", { name: "Home" }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(problems).toEqual([]);
});

test("an address whose parameter is not one is the page's not-found state, asked of no one", async ({
  page,
  problems,
}) => {
  const { users } = state();
  const requests = apiRequests(page);
  await signIn(page, users.rita, "/statements/garbage");
  await settled(page);
  await expect(page.getByRole("heading", { level: 1, name: "This statement does not exist" })).toBeVisible();
  await expect(page.getByText('"garbage" is not a period')).toBeVisible();
  await expect(page.locator("body")).not.toContainText("NaN");
  await expect(menu(page)).toBeVisible();
  await expect(page).toHaveTitle("Statement not found · Commission Tracking");
  expect(requests.filter((path) => path.includes("garbage"))).toEqual([]);

  for (const [path, heading] of [
    ["/deals/garbage", "This deal does not exist"],
    ["/people/garbage", "This person does not exist"],
    ["/statements/2026-Q5", "This statement does not exist"],
    ["/statements/2026-13", "This statement does not exist"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: heading }), path).toBeVisible();
    await expect(menu(page)).toBeVisible();
  }
  expect(requests.filter((path) => /garbage|Q5|2026-13/.test(path))).toEqual([]);

  // A period that is one opens the statement: the API's total for it.
  const rita = await apiAs(users.rita);
  const { body } = await rita("GET", `/users/${users.rita.id}/statement?period=${state().period}`);
  await page.goto(`/statements/${state().period}`);
  await expect(page.getByRole("heading", { level: 1, name: `Statement ${state().period}` })).toBeVisible();
  expect(body.period).toBe(state().period);
  expect(problems).toEqual([]);
});

test("a server that does not answer: the menu stays, the page says so, and comes back by itself", async ({
  page,
  problems,
}) => {
  const { users } = state();
  await signIn(page, users.rita, "/");
  await settled(page);
  // Every call to the API fails as a dead server's would (no answer at all, not an error status).
  await page.route("**/api/v1/**", (route) => route.abort("internetdisconnected"));
  await menu(page).getByRole("link", { name: "My disputes" }).click();
  const offline = page.getByTestId("offline-state");
  await expect(offline).toBeVisible({ timeout: waitOf(20_000) });
  await expect(offline).toContainText("The server cannot be reached");
  await expect(menu(page).getByRole("link", { name: "Home" })).toBeVisible();
  await expect(page.getByLabel("Signed in as")).toContainText(users.rita.name);
  await expect(page.locator("body")).not.toContainText("Failed to fetch");
  // Asking again while it still does not answer keeps the state.
  await offline.getByRole("button", { name: "Try again" }).click();
  await expect(offline).toBeVisible();

  // The server answers again: the page returns without a click, with the API's data.
  await page.unroute("**/api/v1/**");
  await expect(offline).toHaveCount(0, { timeout: waitOf(20_000) });
  await expect(page.getByRole("heading", { level: 1, name: "My disputes" })).toBeVisible();
  await expect(page.locator("body")).not.toContainText("Failed to fetch");
  expect(unexpected(problems)).toEqual([]);
});

test("a page whose code has not loaded, with the server gone: the offline state, then the page on Try again", async ({
  page,
  problems,
}) => {
  const { users } = state();
  await signIn(page, users.rita, "/");
  await settled(page);
  // Nothing of this origin answers now: neither the API nor the page's code.
  await page.route("**/*", (route) => route.abort("internetdisconnected"));
  await menu(page).getByRole("link", { name: "What-if" }).click();
  const offline = page.getByTestId("offline-state");
  await expect(offline).toBeVisible({ timeout: waitOf(20_000) });
  await expect(menu(page)).toBeVisible();
  await expect(page.locator("body")).not.toContainText("Failed to fetch");

  await page.unroute("**/*");
  await offline.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "What-if" })).toBeVisible({ timeout: waitOf(20_000) });
  await expect(offline).toHaveCount(0);
  expect(unexpected(problems)).toEqual([]);
});
