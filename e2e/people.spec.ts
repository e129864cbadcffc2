import type { Page } from "@playwright/test";
import { asAdmin, state } from "./api.js";
import { apiAs, expect, signIn, signInThroughForm, signOut, test } from "./fixtures.js";
import { postPublic, repWithPassword } from "./people.js";
import { settled } from "./settle.js";

// The People page. Every person a test changes is its own ("Workbench …" names): seeded users stay as seeded.

let count = 0;
const uniqueEmail = (first: string) => `${first}.${Date.now()}.${++count}@people-e2e.example.com`;

/** A rep of the test's own, created through the API. */
async function ownRep(name: string) {
  return asAdmin("POST", "/users", { name, email: uniqueEmail(name.split(" ")[1]!.toLowerCase()), role: "rep" });
}

/** The People page filtered to one exact email (the API's `email` filter), as an admin would find someone. */
async function findByEmail(page: Page, email: string) {
  await page.getByLabel("Email (exact)").fill(email);
  await page.getByRole("button", { name: "Search" }).click();
  const rows = page.getByRole("table", { name: "People" }).locator("tbody tr");
  await expect(rows).toHaveCount(1);
  return rows.first();
}

test("an admin creates and invites a person: the link is shown once, works once, and signs them in", async ({
  page,
  problems,
}) => {
  const { users } = state();
  const name = `Workbench Invitee ${Date.now()}`;
  const email = uniqueEmail("invitee");
  await signIn(page, users.admin, "/people");
  await settled(page);
  await page.getByRole("button", { name: "New person" }).click();
  const dialog = page.getByRole("dialog", { name: "New person" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByRole("button", { name: "Create and invite" }).click();

  const invite = page.getByRole("dialog", { name: `Invite ${name}` });
  await invite.getByRole("button", { name: "Create link" }).click();
  const link = invite.getByTestId("one-time-secret");
  await expect(link).toHaveText(/\/invite#.+/);
  const url = (await link.textContent())!.trim();
  const token = new URL(url).hash.slice(1);
  expect(token.length).toBeGreaterThanOrEqual(43);
  await expect(invite.getByRole("button", { name: "Copy invitation link" })).toBeVisible();

  // The API holds the person as the page created them.
  const created = await asAdmin("GET", `/users?email=${encodeURIComponent(email)}`);
  expect(created.meta.total).toBe(1);
  expect(created.data[0]).toMatchObject({ name, email, role: "rep", manager_id: null, active: true });

  // Closed: the link is gone from the page, and a reload does not bring it back.
  await invite.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  expect(await page.content()).not.toContain(token);
  await page.reload();
  await settled(page);
  expect(await page.content()).not.toContain(token);

  // The link works: accepted (as the invite page does), then the person signs in with the password.
  const password = "workbench invitee orchard 77";
  const accepted = await postPublic("/auth/invitations/accept", { token, password });
  expect(accepted.status).toBe(200);
  expect(accepted.body.user).toMatchObject({ id: created.data[0].id, email });
  const again = await postPublic("/auth/invitations/accept", { token, password });
  expect([again.status, again.body.error.code]).toEqual([404, "not_found"]);
  await signOut(page);
  await signInThroughForm(page, { id: created.data[0].id, name, email, role: "rep", password });
  await expect(page.getByLabel("Signed in as")).toContainText(`${name} · rep`);
  expect(problems).toEqual([]);
});

test("the table is GET /users for the same filter, names linking to each person's home", async ({ page, problems }) => {
  const { users } = state();
  const admin = await apiAs(users.admin);
  await signIn(page, users.admin, "/people");
  await settled(page);
  await page.getByRole("combobox", { name: "Role" }).click();
  await page.getByRole("option", { name: "Manager" }).click();
  await page.getByRole("combobox", { name: "Status" }).click();
  await page.getByRole("option", { name: "Active", exact: true }).click();
  await settled(page);

  const expected = await admin("GET", "/users?role=manager&active=true&per_page=25");
  expect(expected.status).toBe(200);
  expect(expected.body.data.length).toBeGreaterThanOrEqual(2); // director and lead at least
  const table = page.getByRole("table", { name: "People" });
  const rows = table.locator("tbody tr");
  await expect(rows).toHaveCount(expected.body.data.length);
  const names = new Map<string, string>();
  for (const u of (await admin("GET", "/users?per_page=100")).body.data) names.set(u.id, u.name);
  for (const [i, user] of expected.body.data.entries()) {
    const row = rows.nth(i);
    await expect(row).toHaveAttribute("data-user-id", user.id);
    await expect(row.getByRole("link", { name: user.name })).toBeVisible();
    await expect(row.locator('[data-col="email"]')).toHaveText(user.email);
    await expect(row.locator('[data-col="role"]')).toHaveText("Manager");
    await expect(row.locator('[data-col="manager"]')).toHaveText(user.manager_id ? names.get(user.manager_id)! : "—");
    await expect(row.locator('[data-col="status"]')).toHaveText("Active");
  }
  await expect(page.getByTestId("list-total")).toHaveText(`${expected.body.meta.total} people`);

  await table.getByRole("link", { name: users.lead.name }).click();
  await expect(page).toHaveURL(new RegExp(`/people/${users.lead.id}$`));
  expect(problems).toEqual([]);
});

test("deactivate (confirmed first) and reactivate: the API agrees each time", async ({ page, problems }) => {
  const { users } = state();
  const rep = await ownRep("Workbench Deactivee");
  await signIn(page, users.admin, "/people");
  await settled(page);
  const row = await findByEmail(page, rep.email);

  await row.getByRole("button", { name: `Actions for ${rep.name}` }).click();
  await page.getByRole("menuitem", { name: "Deactivate" }).click();
  const confirm = page.getByRole("dialog", { name: `Deactivate ${rep.name}?` });
  await expect(confirm).toContainText("can no longer sign in");
  // Cancel changes nothing.
  await confirm.getByRole("button", { name: "Cancel" }).click();
  expect((await asAdmin("GET", `/users/${rep.id}`)).active).toBe(true);

  await row.getByRole("button", { name: `Actions for ${rep.name}` }).click();
  await page.getByRole("menuitem", { name: "Deactivate" }).click();
  await page
    .getByRole("dialog", { name: `Deactivate ${rep.name}?` })
    .getByRole("button", { name: "Deactivate" })
    .click();
  await expect(row.locator('[data-col="status"]')).toHaveText("Inactive");
  expect((await asAdmin("GET", `/users/${rep.id}`)).active).toBe(false);

  await row.getByRole("button", { name: `Actions for ${rep.name}` }).click();
  await expect(page.getByRole("menuitem", { name: /Invite/ })).toHaveCount(0); // an inactive user cannot be invited
  await page.getByRole("menuitem", { name: "Reactivate" }).click();
  await page
    .getByRole("dialog", { name: `Reactivate ${rep.name}?` })
    .getByRole("button", { name: "Reactivate" })
    .click();
  await expect(row.locator('[data-col="status"]')).toHaveText("Active");
  expect((await asAdmin("GET", `/users/${rep.id}`)).active).toBe(true);
  expect(problems).toEqual([]);
});

test("change a role and a manager: the API shows both", async ({ page, problems }) => {
  const { users } = state();
  const rep = await ownRep("Workbench Promotee");
  await signIn(page, users.admin, "/people");
  await settled(page);
  const row = await findByEmail(page, rep.email);

  await row.getByRole("button", { name: `Actions for ${rep.name}` }).click();
  await page.getByRole("menuitem", { name: "Change role" }).click();
  const roleDialog = page.getByRole("dialog", { name: `Change ${rep.name}'s role` });
  await roleDialog.getByRole("combobox", { name: "Role" }).click();
  await roleDialog.getByRole("option", { name: "Manager" }).click();
  await roleDialog.getByRole("button", { name: "Change role" }).click();
  await expect(roleDialog).toHaveCount(0);
  await expect(row.locator('[data-col="role"]')).toHaveText("Manager");
  expect((await asAdmin("GET", `/users/${rep.id}`)).role).toBe("manager");

  await row.getByRole("button", { name: `Actions for ${rep.name}` }).click();
  await page.getByRole("menuitem", { name: "Change manager" }).click();
  const managerDialog = page.getByRole("dialog", { name: `Change ${rep.name}'s manager` });
  await managerDialog.getByRole("combobox", { name: "Manager" }).fill(users.director.name);
  await managerDialog.getByRole("option", { name: `${users.director.name} (Manager)` }).click();
  await managerDialog.getByRole("button", { name: "Change manager" }).click();
  await expect(managerDialog).toHaveCount(0);
  await expect(row.locator('[data-col="manager"]')).toHaveText(users.director.name);
  expect((await asAdmin("GET", `/users/${rep.id}`)).manager_id).toBe(users.director.id);
  expect(problems).toEqual([]);
});

test("a manager from an earlier day, then another from today: the person's page lists both lines (API.md §16)", async ({
  page,
  problems,
}) => {
  const { users } = state();
  const rep = await ownRep("Workbench Reporter");
  const earlier = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  await signIn(page, users.admin, "/people");
  await settled(page);
  const row = await findByEmail(page, rep.email);

  const change = async (manager: { name: string }, from?: string) => {
    await row.getByRole("button", { name: `Actions for ${rep.name}` }).click();
    await page.getByRole("menuitem", { name: "Change manager" }).click();
    const dialog = page.getByRole("dialog", { name: `Change ${rep.name}'s manager` });
    await expect(dialog.getByLabel("Effective from")).toHaveCount(0);
    await dialog.getByRole("combobox", { name: "Manager" }).fill(manager.name);
    await dialog.getByRole("option", { name: `${manager.name} (Manager)` }).click();
    if (from) await dialog.getByLabel("Effective from").fill(from);
    await dialog.getByRole("button", { name: "Change manager" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(row.locator('[data-col="manager"]')).toHaveText(manager.name);
  };
  await change(users.director, earlier);
  await change(users.lead);
  const { data: lines } = await asAdmin("GET", `/users/${rep.id}/reporting-lines`);
  expect(lines).toEqual([
    { manager_id: users.director.id, effective_from: earlier, effective_to: expect.any(String) },
    { manager_id: users.lead.id, effective_from: expect.any(String), effective_to: null },
  ]);

  await page.goto(`/people/${rep.id}`);
  await settled(page);
  const history = page.getByRole("table", { name: "Reporting history" }).locator("tbody tr");
  await expect(history).toHaveCount(2);
  await expect(history.nth(0)).toHaveAttribute("data-effective-from", earlier);
  await expect(history.nth(0).locator("th")).toHaveText(users.director.name);
  await expect(history.nth(1)).toHaveAttribute("data-effective-from", lines[1].effective_from);
  await expect(history.nth(1).locator("th")).toHaveText(users.lead.name);
  await expect(history.nth(1).locator("td").last()).toHaveText("today");
  expect(problems).toEqual([]);
});

test("sign a person out everywhere: their session ends, and the page says how many", async ({ page, problems }) => {
  const { users } = state();
  const rep = await repWithPassword("Workbench Signedout", "workbench signed out marigold 5");
  const session = await apiAs(rep);
  expect((await session("GET", "/auth/session")).status).toBe(200);
  await signIn(page, users.admin, "/people");
  await settled(page);
  const row = await findByEmail(page, rep.email);
  await row.getByRole("button", { name: `Actions for ${rep.name}` }).click();
  await page.getByRole("menuitem", { name: "Sign out everywhere" }).click();
  const dialog = page.getByRole("dialog", { name: `Sign ${rep.name} out everywhere?` });
  await dialog.getByRole("button", { name: "Sign out everywhere" }).click();
  // accepting the invitation left one session (repWithPassword), and apiAs started another
  await expect(page.getByRole("status")).toHaveText(`Ended 2 open sessions of ${rep.name}.`);
  const after = await session("GET", "/users?per_page=1");
  expect([after.status, (after.body as any).error.code]).toEqual([401, "unauthorized"]);
  expect(problems).toEqual([]);
});

test("finance reads People without any action; a rep gets the not-allowed page", async ({ page, problems }) => {
  const { users } = state();
  const finance = await apiAs(users.finance);
  await signIn(page, users.finance, "/people");
  await settled(page);
  const expected = await finance("GET", "/users?per_page=25");
  const rows = page.getByRole("table", { name: "People" }).locator("tbody tr");
  await expect(rows).toHaveCount(expected.body.data.length);
  await expect(rows.first()).toHaveAttribute("data-user-id", expected.body.data[0].id);
  await expect(page.getByRole("button", { name: "New person" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Actions for/ })).toHaveCount(0);
  await expect(page.getByText("(read-only)")).toBeVisible();
  await signOut(page);

  await signIn(page, users.rita, "/people");
  await expect(page.getByRole("heading", { name: "You are not allowed to open this page" })).toBeVisible();
  await expect(page.getByRole("table")).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "People" })).toHaveCount(0);
  expect(problems).toEqual([]);
});
