import { asAdmin, call, state } from "./api.js";
import { apiAs, expect, signIn, signOut, test } from "./fixtures.js";
import { settled } from "./settle.js";
import { waitOf } from "./waits.js";

// The admin's Audit log, Request log and Jobs pages, each compared with what the API lists for the
// same filter. The records they show are the tests' own (a user they change, a key they call with).

test("the audit log shows what GET /audit-events lists for the same filter, each row opening to its before/after", async ({
  page,
  problems,
}) => {
  const { users } = state();
  const user = await asAdmin("POST", "/users", {
    name: "Audited Workbench",
    email: `audited.${Date.now()}@logs-e2e.example.com`,
  });
  await asAdmin("PATCH", `/users/${user.id}`, { name: "Audited Workbench (renamed)" });
  await asAdmin("PATCH", `/users/${user.id}`, { role: "manager" });
  const admin = await apiAs(users.admin);
  const expected = await admin("GET", `/audit-events?resource=user&resource_id=${user.id}&per_page=50`);
  expect(expected.status).toBe(200);
  expect(expected.body.data.map((e: any) => e.action)).toEqual(["user.update", "user.update", "user.create"]);

  await signIn(page, users.admin, "/audit");
  await settled(page);
  await page.getByRole("combobox", { name: "Resource" }).fill("user");
  await page.getByLabel("Resource id").fill(user.id);
  await page.getByRole("button", { name: "Apply" }).click();
  const rows = page.getByRole("table", { name: "Audit events" }).locator("tbody tr[data-event-id]");
  await expect(rows).toHaveCount(3);
  for (const [i, event] of expected.body.data.entries()) {
    await expect(rows.nth(i)).toHaveAttribute("data-event-id", event.id);
    await expect(rows.nth(i).locator('[data-col="action"]')).toHaveText(event.action);
    await expect(rows.nth(i)).toContainText(event.actor.name);
  }
  await expect(page.getByTestId("list-total")).toHaveText("3 events");

  const renamed = expected.body.data[1];
  await rows
    .nth(1)
    .getByRole("button", { name: /^Show before and after/ })
    .click();
  const changes = page.locator(`tr[data-changes-of="${renamed.id}"]`);
  expect(JSON.parse(await changes.getByTestId("snapshot-before").innerText())).toEqual(renamed.before);
  expect(JSON.parse(await changes.getByTestId("snapshot-after").innerText())).toEqual(renamed.after);
  expect(renamed.after.name).toBe("Audited Workbench (renamed)");
  await rows
    .nth(1)
    .getByRole("button", { name: /^Hide before and after/ })
    .click();
  await expect(changes).toHaveCount(0);

  // Cleared: the newest events of everyone, as the API lists them now.
  await page.getByRole("button", { name: "Clear" }).click();
  await settled(page);
  const latest = await admin("GET", "/audit-events?per_page=50");
  await expect(rows).toHaveCount(latest.body.data.length);
  await expect(rows.first()).toHaveAttribute("data-event-id", latest.body.data[0].id);
  await expect(rows.last()).toHaveAttribute("data-event-id", latest.body.data.at(-1).id);
  await expect(page.getByTestId("list-total")).toHaveText(`${latest.body.meta.total} events`);
  expect(problems).toEqual([]);
});

test("the request log shows the requests GET /request-logs lists for a key, and its status filter", async ({
  page,
  problems,
}) => {
  const { users, url } = state();
  const key = await asAdmin("POST", "/api-keys", { name: `Request-log probe ${Date.now()}`, scope: "read" });
  const headers = { Authorization: `Bearer ${key.key}` };
  await call(url, "GET", "/users?per_page=1", headers);
  await call(url, "GET", "/spiffs", headers);
  await call(url, "GET", "/deals/deal_00000000000000000000000000", headers).catch(() => undefined); // a 404
  const admin = await apiAs(users.admin);
  const expected = await admin("GET", `/request-logs?key_id=${key.id}&per_page=50`);
  expect(expected.body.data.map((r: any) => r.status)).toEqual([404, 200, 200]);

  await signIn(page, users.admin, "/request-log");
  await settled(page);
  await page.getByLabel("API key").fill(key.id);
  await page.getByRole("button", { name: "Apply" }).click();
  const rows = page.getByRole("table", { name: "Requests" }).locator("tbody tr");
  await expect(rows).toHaveCount(3);
  for (const [i, logged] of expected.body.data.entries()) {
    await expect(rows.nth(i)).toHaveAttribute("data-request-id", logged.id);
    await expect(rows.nth(i).locator('[data-col="request"]')).toContainText(`${logged.method} ${logged.path}`);
    await expect(rows.nth(i).locator('[data-col="status"]')).toHaveText(String(logged.status));
    await expect(rows.nth(i).locator('[data-col="caller"]')).toHaveText(key.id);
  }

  await page.getByLabel("Status").fill("404");
  await page.getByRole("button", { name: "Apply" }).click();
  const notFound = await admin("GET", `/request-logs?key_id=${key.id}&status=404`);
  await expect(rows).toHaveCount(notFound.body.meta.total);
  await expect(rows.first()).toHaveAttribute("data-request-id", notFound.body.data[0].id);
  expect(problems).toEqual([]);
});

test("jobs are GET /jobs, newest first, and the page polls while one is in progress", async ({ page, problems }) => {
  const { users } = state();
  const admin = await apiAs(users.admin);
  const expected = await admin("GET", "/jobs?per_page=25");
  expect(expected.status).toBe(200);
  expect(expected.body.data.length).toBeGreaterThan(0); // the retention job the server queues at start
  await signIn(page, users.admin, "/jobs");
  await settled(page);
  const rows = page.getByRole("table", { name: "Jobs" }).locator("tbody tr");
  const now = await admin("GET", "/jobs?per_page=25");
  await expect(rows).toHaveCount(now.body.data.length);
  for (const [i, job] of now.body.data.entries()) {
    await expect(rows.nth(i)).toHaveAttribute("data-job-id", job.id);
    await expect(rows.nth(i).locator('[data-col="kind"]')).toHaveText(job.kind);
    await expect(rows.nth(i).locator('[data-col="status"]')).toHaveText(job.status);
  }

  // A queued job on the page: it asks again within the polling interval, without a click.
  await page.getByRole("combobox", { name: "Status" }).click();
  await page.getByRole("option", { name: "Queued" }).click();
  await page.getByRole("button", { name: "Apply" }).click();
  const queued = await admin("GET", "/jobs?status=queued");
  expect(queued.body.meta.total).toBeGreaterThan(0); // the next retention run waits queued
  await expect(rows).toHaveCount(queued.body.meta.total);
  const again = await page.waitForRequest(
    (r) => r.url().includes("/api/v1/jobs?") && r.url().includes("status=queued"),
    {
      timeout: waitOf(5_000),
    },
  );
  expect(again.method()).toBe("GET");
  expect(problems).toEqual([]);
});

for (const [path, heading] of [
  ["/audit", "Audit log"],
  ["/request-log", "Request log"],
  ["/jobs", "Jobs"],
] as const) {
  test(`${heading}: a rep and finance get the not-allowed page and no link`, async ({ page, problems }) => {
    const { users } = state();
    for (const who of [users.rita, users.finance]) {
      await signIn(page, who, path);
      await expect(page.getByRole("heading", { name: "You are not allowed to open this page" })).toBeVisible();
      await expect(page.getByText("It is for admin users.")).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: heading })).toHaveCount(0);
      await signOut(page);
    }
    expect(problems).toEqual([]);
  });
}
