import { test as base, expect, type Page } from "@playwright/test";
import { type SeededUser, state } from "./api.js";

/**
 * Every test's page records what the browser refused or failed: CSP violations, console errors and
 * requests answered 5xx or not at all. A test ends by asserting there were none (`clean`).
 */
export const test = base.extend<{ problems: string[] }>({
  // This worker's own server (global-setup.ts starts one per worker).
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  baseURL: async ({}, use) => use(state().url),
  problems: async ({ page }, use) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      // Chromium logs every 4xx as "Failed to load resource"; answers are judged by the listeners below.
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
        problems.push(`console: ${message.text()}`);
      }
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("requestfailed", (request) => {
      const failure = request.failure()?.errorText ?? "";
      // A navigation away cancels what the old page still had in flight: not a failure of the page.
      if (!failure.includes("ERR_ABORTED")) problems.push(`failed: ${request.url()} ${failure}`);
    });
    page.on("response", (response) => {
      if (response.status() >= 500) problems.push(`${response.status()}: ${response.url()}`);
    });
    await use(problems);
  },
});
export { expect };

/**
 * Signs in through the sign-in page, as a person would: what the specs of signing in itself use (the
 * form, where it leads, a password just set). Every other test starts from a stored session (`signIn`).
 */
export async function signInThroughForm(page: Page, user: SeededUser, path = "/"): Promise<void> {
  await page.goto(path);
  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("textbox", { name: "Password" }).fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByLabel("Signed in as")).toContainText(user.name);
}

/** This worker's sessions, one per person and password: signed in through the API once, then reused. */
const storedSessions = new Map<string, string>();

/** A session of `user` that the server still accepts (a test may have signed them out or revoked it). */
async function storedSession(user: SeededUser): Promise<string> {
  const { url } = state();
  const key = `${user.email}\n${user.password}`;
  const stored = storedSessions.get(key);
  if (stored) {
    const check = await fetch(`${url}/api/v1/auth/session`, { headers: { Cookie: stored, Origin: url } });
    await check.arrayBuffer();
    if (check.status === 200) return stored;
    if (check.status !== 401) throw new Error(`GET /auth/session → ${check.status}`);
  }
  const { cookie } = await sessionOf(user);
  storedSessions.set(key, cookie);
  return cookie;
}

/**
 * Opens `path` signed in as `user`: the browser gets a session of theirs (their cookie, as the sign-in
 * form would have left it, HttpOnly and SameSite=Lax, started through the same POST /auth/login once per
 * worker and person, and checked with GET /auth/session before each reuse) and the page shows them signed in. Signing in through the form is its own tests' (signInThroughForm).
 */
export async function signIn(page: Page, user: SeededUser, path = "/"): Promise<void> {
  const { url } = state();
  const cookie = await storedSession(user);
  await page.context().addCookies(
    cookie.split("; ").map((pair) => {
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url, httpOnly: true, sameSite: "Lax" as const };
    }),
  );
  await page.goto(path);
  await expect(page.getByLabel("Signed in as")).toContainText(user.name);
}

/**
 * Signs out through the menu and waits for the sign-in page: the sign-out request has then ended the
 * session (a navigation started before it would cancel the request and keep the person signed in).
 */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
}

/** A person signed in from Node: their session cookie and CSRF token. */
export async function sessionOf(user: SeededUser): Promise<{ cookie: string; csrf_token: string }> {
  const { url } = state();
  const login = await fetch(`${url}/api/v1/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: url },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  if (!login.ok) throw new Error(`login ${user.email} → ${login.status}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const { csrf_token } = (await login.json()) as { csrf_token: string };
  return { cookie, csrf_token };
}

/** A person's API session in Node (cookie and CSRF token), to read what the page should show. */
export async function apiAs(user: SeededUser) {
  const { url } = state();
  const { cookie, csrf_token } = await sessionOf(user);
  return async <T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: {
        Cookie: cookie,
        "X-CSRF-Token": csrf_token,
        Origin: url,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  };
}
