import { asAdmin, state } from "./api.js";
import { seriousViolations } from "./axe.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";

// Raw keys pass through these tests: no trace or failure screenshot may hold one.
test.use({ locale: "en-US", trace: "off", screenshot: "off" });

const dateTime = (timestamp: string) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" }).format(new Date(timestamp));

/** GET /deals with a raw key: the status and the error code, if any. */
async function dealsWith(key: string): Promise<{ status: number; code?: string }> {
  const res = await fetch(`${state().url}/api/v1/deals?per_page=1`, { headers: { Authorization: `Bearer ${key}` } });
  const body = (await res.json()) as { error?: { code: string } };
  return { status: res.status, code: body.error?.code };
}

/** Asserts without printing the secret when it fails. */
function expectNotOnPage(html: string, secret: string, what: string) {
  expect(html.includes(secret), `${what} is not on the page`).toBe(false);
}

test("an admin creates a key, sees it exactly once, rotates it with grace and revokes it", async ({
  page,
  context,
  problems,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const name = `E2E CRM sync ${Date.now()}`;
  await signIn(page, state().users.admin, "/api-keys");
  await settled(page);

  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create an API key" });
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expect(dialog.getByText("Name the key")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("combobox", { name: "Scope" }).click();
  await page.getByRole("option", { name: /^write/ }).click();
  await dialog.getByRole("combobox", { name: "Expires" }).click();
  await page.getByRole("option", { name: "In 30 days" }).click();
  await dialog.getByRole("button", { name: "Create key" }).click();

  const shown = page.getByRole("dialog", { name: "Your new API key" });
  await expect(shown.getByText("you will not see it again")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  const key = (await shown.getByTestId("one-time-secret").textContent())!.trim();
  const listed = (await asAdmin("GET", "/api-keys?per_page=100")).data.find((k: any) => k.name === name);
  expect(listed).toMatchObject({ scope: "write", mcp_access: "read", revoked_at: null, last_used_at: null });
  expect(key.startsWith(`cts_${listed.environment}_`)).toBe(true);
  // The API's prefix is the key's first characters and an ellipsis ("cts_demo_AbCd…").
  const shownPart = (prefix: string) => prefix.replace(/…$/, "");
  expect(listed.prefix.endsWith("…")).toBe(true);
  expect(key.startsWith(shownPart(listed.prefix))).toBe(true);
  expect(key.length).toBeGreaterThan(shownPart(listed.prefix).length + 32);
  // The 30-day preset: the API's expiry is 30 days from creation, to the minute.
  expect(Math.abs(Date.parse(listed.expires_at) - Date.parse(listed.created_at) - 30 * 86_400_000)).toBeLessThan(
    60_000,
  );

  await shown.getByRole("button", { name: "Copy api key" }).click();
  await expect(shown.getByRole("button", { name: "Copied" })).toBeVisible();
  expect((await page.evaluate<string>("navigator.clipboard.readText()")) === key, "the clipboard holds the key").toBe(
    true,
  );
  await shown.getByRole("button", { name: "I have stored it" }).click();
  await expect(page.getByTestId("one-time-secret")).toHaveCount(0);
  expectNotOnPage(await page.content(), key, "the raw key, after closing");

  // The key works; after a reload only its prefix is left, and its row is the API's.
  expect(await dealsWith(key)).toEqual({ status: 200, code: undefined });
  await page.reload();
  await settled(page);
  expectNotOnPage(await page.content(), key, "the raw key, after a reload");
  const used = await asAdmin("GET", `/api-keys/${listed.id}`);
  expect(used.last_used_at).not.toBeNull();
  const row = page.locator(`tr[data-key-id="${listed.id}"]`);
  await expect(row.locator('[data-col="name"]')).toContainText(name);
  await expect(row.locator('[data-col="scope"]')).toHaveText("write");
  await expect(row.locator('[data-col="prefix"]')).toHaveText(listed.prefix);
  await expect(row.locator('[data-col="created"]')).toHaveText(dateTime(used.created_at));
  await expect(row.locator('[data-col="last-used"]')).toHaveText(dateTime(used.last_used_at));
  await expect(row.locator('[data-col="status"]')).toHaveText(`Expires ${dateTime(used.expires_at)}`);
  await expect(row.locator('[data-col="mcp"]')).toHaveText("read");

  // MCP access: what it reaches and the owner's command; the console has no way to raise it.
  await row.getByRole("button", { name: /^MCP access/ }).click();
  const mcp = page.getByRole("dialog", { name: `MCP access of “${name}”` });
  await expect(mcp.getByTestId("mcp-level")).toContainText("with the read tools");
  await expect(mcp.getByTestId("grant-write")).toHaveText(`cts keys mcp-access ${listed.id} write`);
  await expect(mcp.getByTestId("grant-admin")).toHaveCount(0); // above a write key's scope
  expect(await seriousViolations(page)).toEqual([]);
  await mcp.getByRole("button", { name: "Done" }).click();

  // Rotate with an hour's grace: the new key once, and the old key's grace end as the API set it.
  await row.getByRole("button", { name: /^Rotate/ }).click();
  const rotate = page.getByRole("dialog", { name: `Rotate “${name}”` });
  await rotate.getByRole("combobox", { name: "The old key keeps working for" }).click();
  await page.getByRole("option", { name: "1 hour" }).click();
  await rotate.getByRole("button", { name: "Rotate key" }).click();
  const replacement = page.getByRole("dialog", { name: "The replacement key" });
  const newKey = (await replacement.getByTestId("one-time-secret").textContent())!.trim();
  const old = await asAdmin("GET", `/api-keys/${listed.id}`);
  const graceMs = Date.parse(old.expires_at) - Date.now();
  expect(graceMs).toBeGreaterThan(3_500_000);
  expect(graceMs).toBeLessThanOrEqual(3_600_000);
  await expect(replacement.getByTestId("grace-end")).toHaveText(
    `The old key ${listed.prefix} keeps working until ${dateTime(old.expires_at)}.`,
  );
  expect(newKey === key).toBe(false);
  expect(await seriousViolations(page)).toEqual([]);
  await replacement.getByRole("button", { name: "I have stored it" }).click();
  expectNotOnPage(await page.content(), newKey, "the replacement key, after closing");
  const renewed = (await asAdmin("GET", "/api-keys?per_page=100")).data.find((k: any) => k.replaces === listed.id);
  expect(renewed).toMatchObject({ name, scope: "write", mcp_access: "read" });
  expect(newKey.startsWith(shownPart(renewed.prefix))).toBe(true);
  expect(await dealsWith(newKey)).toEqual({ status: 200, code: undefined });
  expect(await dealsWith(key)).toEqual({ status: 200, code: undefined }); // within its grace
  await expect(row.locator('[data-col="status"]')).toHaveText(`Rotated works until ${dateTime(old.expires_at)}`);
  expect(await seriousViolations(page)).toEqual([]); // the table with a rotated key's badge

  // Revoke the new key, after a confirmation: its next request is refused.
  const newRow = page.locator(`tr[data-key-id="${renewed.id}"]`);
  await newRow.getByRole("button", { name: /^Revoke/ }).click();
  const confirm = page.getByRole("dialog", { name: `Revoke “${name}”?` });
  await confirm.getByRole("button", { name: "Revoke key" }).click();
  await expect(confirm).toHaveCount(0);
  const revoked = await asAdmin("GET", `/api-keys/${renewed.id}`);
  expect(revoked.revoked_at).not.toBeNull();
  await expect(newRow.locator('[data-col="status"]')).toHaveText(`Revoked ${dateTime(revoked.revoked_at)}`);
  await expect(newRow.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);
  expect(await dealsWith(newKey)).toEqual({ status: 401, code: "unauthorized" });
  expect(problems).toEqual([]);
});

test("the server's validation error shows on the field, and nothing is created", async ({ page, problems }) => {
  const admin = await apiAs(state().users.admin);
  const before = (await admin("GET", "/api-keys?per_page=1")).body.meta.total;
  await signIn(page, state().users.admin, "/api-keys");
  await settled(page);
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create an API key" });
  await dialog.getByLabel("Name").fill("E2E already expired");
  await dialog.getByRole("combobox", { name: "Scope" }).click();
  await page.getByRole("option", { name: /^read/ }).click();
  await dialog.getByRole("combobox", { name: "Expires" }).click();
  await page.getByRole("option", { name: "On a date…" }).click();
  await dialog.getByLabel("Expiry day").fill("2020-01-01");
  await dialog.getByRole("button", { name: "Create key" }).click();
  const refused = await admin("POST", "/api-keys", {
    name: "E2E already expired",
    scope: "read",
    expires_at: "2020-01-01T00:00:00.000Z",
  });
  expect(refused.status).toBe(422);
  const message = refused.body.error.details.find((d: any) => d.param === "expires_at").message;
  await expect(dialog.getByLabel("Expiry day")).toHaveAccessibleDescription(new RegExp(message));
  await expect(dialog.getByTestId("one-time-secret")).toHaveCount(0);
  expect((await admin("GET", "/api-keys?per_page=1")).body.meta.total).toBe(before);
  expect(problems).toEqual([]);
});

test("a rep gets the 'not allowed' page on /api-keys, no nav entry, and the API's 403", async ({ page, problems }) => {
  const rita = state().users.rita;
  await signIn(page, rita, "/api-keys");
  await expect(page.getByRole("heading", { name: "You are not allowed to open this page" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "API keys" })).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Webhooks" })).toHaveCount(0);
  const asRita = await apiAs(rita);
  const refused = await asRita("GET", "/api-keys");
  expect(refused.status).toBe(403);
  expect(refused.body.error.code).toBe("forbidden");
  expect(problems).toEqual([]);
});
