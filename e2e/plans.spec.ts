import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { asAdmin, type SeededUser, state } from "./api.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";
import { waitOf } from "./waits.js";

// Every test here works on a plan, reps and deals of its own (never the seed's "AE quarterly", which
// other specs read), and compares what the page shows with what the API answers.

test.use({ locale: "en-US" });

const money = (amount: number, currency = "USD") =>
  new Intl.NumberFormat("en-US", { style: "currency", currency, minimumFractionDigits: 2 }).format(amount);
/** As lib/format.ts signedMoney: +$1.00, −$1.00, $0.00. */
const signed = (amount: number, currency = "USD") =>
  amount > 0 ? `+${money(amount, currency)}` : amount < 0 ? `−${money(-amount, currency)}` : money(0, currency);

/** As lib/format.ts date: "2026-07-15" → "Jul 15, 2026". */
const day = (isoDate: string) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${isoDate}T00:00:00Z`));

/** The first day of the quarter `back` quarters before today's, plus `day` days, and that quarter's label. */
function inQuarter(back: number, day = 0): { date: string; period: string } {
  const now = new Date();
  const index = now.getUTCFullYear() * 4 + Math.floor(now.getUTCMonth() / 3) - back;
  const start = new Date(Date.UTC(Math.floor(index / 4), (index % 4) * 3, 1 + day));
  return { date: start.toISOString().slice(0, 10), period: `${Math.floor(index / 4)}-Q${(index % 4) + 1}` };
}

let count = 0;
const unique = () => `${Date.now()}.${++count}`;

interface World {
  plan: any;
  reps: { id: string; name: string }[];
}

/**
 * A tiered quarterly plan (10 % to quota, 15 % above) assigned to two new reps, each with an approved
 * (locked) deal last quarter and a pending one this quarter.
 */
async function planWorld(label: string): Promise<World> {
  const from = inQuarter(2).date;
  const plan = await asAdmin("POST", "/comp-plans", {
    name: `Plans spec ${label} ${unique()}`,
    description: "Made by e2e/plans.spec.ts",
    period: "quarter",
    quota: 50000,
    tiers: [
      { from_attainment: 0, rate: 0.1 },
      { from_attainment: 1, rate: 0.15 },
    ],
    deal_type_multipliers: { renewal: 0.5 },
    effective_from: from,
  });
  const reps = [];
  for (const [i, first] of ["Pia", "Pete"].entries()) {
    const name = `${first} Planner ${label}`;
    const user = await asAdmin("POST", "/users", { name, email: `${first.toLowerCase()}.${unique()}@e2e.example.com` });
    await asAdmin("POST", `/comp-plans/${plan.id}/assignments`, { user_id: user.id, effective_from: from });
    const locked = await asAdmin("POST", "/deals", {
      opportunity_name: `${label} locked ${i}`,
      arr_amount: 40000 + i * 25000,
      close_date: inQuarter(1, 5 + i).date,
      owner_id: user.id,
    });
    await asAdmin("POST", `/deals/${locked.id}/approve`);
    await asAdmin("POST", "/deals", {
      opportunity_name: `${label} pending ${i}`,
      arr_amount: 20000 + i * 5000,
      close_date: inQuarter(0, 2 + i).date,
      owner_id: user.id,
    });
    reps.push({ id: user.id as string, name });
  }
  return { plan, reps };
}

const NEW_TIERS = [
  { from_attainment: 0, rate: 0.12 },
  { from_attainment: 1, rate: 0.15 },
];

/** Opens the edit form, sets the first tier's rate to 12 % (0.12) and asks for the impact. */
async function previewRateChange(page: Page, button: "Edit terms" | "Try a change"): Promise<void> {
  await page.getByRole("button", { name: button }).click();
  await expect(page.getByRole("textbox", { name: "Tier 1 rate" })).toHaveValue("10");
  await page.getByRole("textbox", { name: "Tier 1 rate" }).fill("12");
  await page.getByRole("button", { name: "Preview impact" }).click();
  await expect(page.getByTestId("impact-summary")).toBeVisible();
}

/** The impact on the page equals POST /comp-plans/{id}/impact's for the same body, to the cent. */
async function expectImpactAsApi(page: Page, impact: any): Promise<void> {
  const stat = (key: string) => page.getByTestId("impact-summary").locator(`[data-stat="${key}"]`);
  await expect(stat("users")).toHaveText(String(impact.summary.users));
  await expect(stat("deals")).toHaveText(String(impact.summary.deals));
  await expect(stat("lines")).toHaveText(String(impact.summary.lines));
  await expect(stat("pending_delta")).toHaveText(signed(impact.summary.pending_delta));
  await expect(stat("locked_delta")).toHaveText(signed(impact.summary.locked_delta));
  await expect(stat("version")).toHaveText(`v${impact.from_version} → v${impact.to_version}`);
  const byRep = page.getByTestId("impact-by-rep");
  const rowCount = impact.users.reduce((n: number, u: any) => n + u.periods.length, 0);
  await expect(byRep.locator("tbody tr")).toHaveCount(rowCount);
  for (const user of impact.users) {
    for (const p of user.periods) {
      const row = byRep.locator(`tr[data-user-id="${user.user_id}"][data-period="${p.period}"]`);
      await expect(row).toContainText(user.name);
      await expect(row.locator('[data-col="pending-delta"]')).toHaveText(
        signed(Math.round((p.pending.after - p.pending.before) * 100) / 100),
      );
      await expect(row.locator('[data-col="locked-delta"]')).toHaveText(
        signed(Math.round((p.locked.after - p.locked.before) * 100) / 100),
      );
    }
  }
  await expect(page.getByTestId("impact-line")).toHaveCount(impact.lines.data.length);
  for (const line of impact.lines.data) {
    const card = page.locator(
      `[data-testid="impact-line"][data-deal-id="${line.deal_id}"][data-user-id="${line.user_id}"]`,
    );
    // The deal by the API's name and close date, linked; its id only as secondary text; the person by name.
    const deal = card.getByTestId("impact-line-deal");
    await expect(deal).toHaveText(line.opportunity_name);
    await expect(deal).toHaveAttribute("href", `/deals/${line.deal_id}`);
    await expect(card.getByTestId("impact-line-close-date")).toHaveText(`closed ${day(line.close_date)}`);
    await expect(card.getByTestId("record-id")).toHaveText(line.deal_id);
    const person = impact.users.find((u: any) => u.user_id === line.user_id);
    await expect(card.getByTestId("impact-line-person")).toHaveText(person.name);
    await expect(card.getByTestId("impact-line-change")).toHaveText(
      `${money(line.before)} → ${money(line.after)} (${signed(line.delta)})`,
    );
    await expect(card.getByTestId("explanation-before").getByTestId("explanation-summary")).toHaveText(
      line.explanation_before.summary,
    );
    await expect(card.getByTestId("explanation-after").getByTestId("explanation-summary")).toHaveText(
      line.explanation_after.summary,
    );
  }
}

test("an admin changes a rate, sees the API's impact, applies it with retroactive corrections and finds them in the rep's statement", async ({
  page,
  problems,
}) => {
  test.slow(); // preview, apply, the versions and a statement: over a minute on a loaded 2-core machine
  const { plan, reps } = await planWorld("retro");
  await signIn(page, state().users.admin, `/plans/${plan.id}`);
  await settled(page);
  await expect(page.getByTestId("tier-table").locator("tbody tr").first().locator('[data-col="rate"]')).toHaveText(
    "10%",
  );
  await previewRateChange(page, "Edit terms");

  const impact = await asAdmin("POST", `/comp-plans/${plan.id}/impact?per_page=10`, { tiers: NEW_TIERS });
  // Both locked history and pending lines move, so every number below is one that can be wrong.
  expect(impact.summary.users).toBe(2);
  expect(impact.summary.locked_delta).not.toBe(0);
  expect(impact.summary.pending_delta).not.toBe(0);
  await expectImpactAsApi(page, impact);

  // The retroactive apply is the secondary action: it asks for the plan's name typed out first.
  await page.getByRole("button", { name: "Apply and correct locked history…" }).click();
  const confirm = page.getByRole("dialog", { name: "Correct locked history too?" });
  await expect(confirm.getByTestId("retroactive-total")).toContainText(signed(impact.summary.locked_delta));
  const go = confirm.getByRole("button", { name: "Apply and correct locked history", exact: true });
  await expect(go).toBeDisabled();
  await confirm.getByRole("textbox", { name: "Type the plan's name to confirm" }).fill(plan.name.slice(0, -1));
  await expect(go).toBeDisabled();
  expect((await asAdmin("GET", `/comp-plans/${plan.id}`)).version).toBe(1);
  await confirm.getByRole("textbox", { name: "Type the plan's name to confirm" }).fill(plan.name);
  await expect(go).toBeEnabled();
  await go.click();
  const notice = page.getByTestId("saved-notice");
  await expect(notice).toContainText("is now version 2");
  const lockedLines = impact.lines.data.filter((l: any) => l.locked);
  await expect(notice.getByTestId("retroactive-adjustments")).toHaveText(
    `${lockedLines.length} retroactive adjustment line${lockedLines.length === 1 ? "" : "s"} written, totalling ${signed(impact.summary.locked_delta)}.`,
  );
  const after = await asAdmin("GET", `/comp-plans/${plan.id}`);
  expect(after.version).toBe(2);
  expect(after.tiers).toEqual(NEW_TIERS);
  await expect(page.getByTestId("plan-version")).toHaveText("version 2");
  // Its versions, as GET /comp-plans/{id}/versions has them: v2 changed the first tier's rate.
  const versions = await asAdmin("GET", `/comp-plans/${plan.id}/versions`);
  expect(versions.data.map((v: any) => v.version)).toEqual([2, 1]);
  const versionRows = page.getByTestId("plan-versions").locator("tbody tr");
  await expect(versionRows).toHaveCount(versions.meta.total);
  const pct = (ratio: number) =>
    new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 4 }).format(ratio);
  const tiersText = (v: any) => v.tiers.map((t: any) => `from ${pct(t.from_attainment)}: ${pct(t.rate)}`).join(", ");
  await expect(page.locator('[data-version="2"] [data-term="Tiers"]')).toHaveText(
    `Tiers: ${tiersText(versions.data[1])} → ${tiersText(versions.data[0])}`,
  );
  await expect(page.locator('[data-version="2"] li')).toHaveCount(1);

  // The adjustment lines, as GET /users/{id}/statement has them, on the rep's statement page.
  const admin = await apiAs(state().users.admin);
  const period = inQuarter(1).period;
  const rep = reps[0]!;
  const statement = await admin("GET", `/users/${rep.id}/statement?period=${period}`);
  expect(statement.status).toBe(200);
  const adjustments = statement.body.lines.filter((l: any) => l.kind === "adjustment" && l.explanation.retroactive);
  expect(adjustments.length).toBe(1);
  const corrected = lockedLines.find((l: any) => l.user_id === rep.id);
  expect(adjustments[0].amount).toBe(corrected.delta);
  await page.goto(`/statements/${period}?user=${rep.id}`);
  await settled(page);
  for (const line of statement.body.lines) {
    const row = page.locator(`[data-line-id="${line.id}"]`);
    await expect(row.getByTestId("amount")).toHaveText(money(line.amount));
    await expect(row).toContainText(new RegExp(line.kind, "i"));
  }
  await expect(page.getByTestId("statement-lines").locator("tbody tr")).toHaveCount(statement.body.lines.length);
  expect(problems).toEqual([]);
});

test("a second admin's edit between load and save: 412 shown, nothing saved by the page, and the latest version reloads", async ({
  page,
  problems,
}) => {
  const { plan } = await planWorld("race");
  await signIn(page, state().users.admin, `/plans/${plan.id}`);
  await settled(page);
  await previewRateChange(page, "Edit terms");

  const other = await asAdmin("PATCH", `/comp-plans/${plan.id}`, { cap_per_period: 99999 });
  expect(other.version).toBe(2);
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  const alert = page.getByRole("alert").filter({ hasText: "Someone else changed this plan since you opened it" });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText("Nothing was saved.");

  const now = await asAdmin("GET", `/comp-plans/${plan.id}`);
  expect(now.version).toBe(2);
  expect(now.tiers).toEqual(plan.tiers);
  expect(now.cap_per_period).toBe(99999);
  const history = await asAdmin("GET", `/audit-events?resource=comp_plan&resource_id=${plan.id}`);
  expect(history.data.filter((e: any) => e.action === "comp_plan.update")).toHaveLength(1);

  await alert.getByRole("button", { name: "Reload the latest version" }).click();
  await expect(page.getByRole("heading", { name: `Change ${plan.name} (from version 2)` })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Cap per period" })).toHaveValue("99,999");
  await expect(page.getByRole("textbox", { name: "Tier 1 rate" })).toHaveValue("10");
  await expect(page.getByTestId("impact-summary")).toHaveCount(0);
  expect(problems).toEqual([]);
});

test("assignments: an overlap (409) said as a sentence naming the assignment, a bad end date said before sending; end, quota override and delete reach the API", async ({
  page,
  problems,
}) => {
  const { plan, reps } = await planWorld("assign");
  const admin = await apiAs(state().users.admin);
  const rep = reps[0]!;
  await signIn(page, state().users.admin, `/plans/${plan.id}`);
  await settled(page);
  const listed = await admin("GET", `/comp-plans/${plan.id}/assignments`);
  await expect(page.getByTestId("assignments").locator("tbody tr")).toHaveCount(listed.body.data.length);

  const form = page.getByRole("form", { name: "Add an assignment" });
  const overlapping = { user_id: rep.id, effective_from: inQuarter(0, 10).date };
  await form.getByRole("combobox", { name: "Person" }).click();
  await page.getByRole("option", { name: new RegExp(`^${rep.name} `) }).click();
  await form.getByLabel("Effective from").fill(overlapping.effective_from);
  await form.getByRole("button", { name: "Add assignment" }).click();
  const refused = await admin("POST", `/comp-plans/${plan.id}/assignments`, overlapping);
  expect(refused.status).toBe(409);
  expect(refused.body.error.code).toBe("conflict");
  const fromField = form.getByLabel("Effective from");
  await expect(fromField).toHaveAttribute("aria-invalid", "true");
  // The assignment in the way, as the API lists the rep's: this plan's, from its first day, open-ended.
  const theirs = (await admin("GET", `/plan-assignments?user_id=${rep.id}`)).body.data;
  expect(theirs).toHaveLength(1);
  expect(theirs[0].effective_to).toBeNull();
  await expect(form.getByTestId("assignment-overlap")).toContainText(
    `${rep.name} is already on this plan from ${day(theirs[0].effective_from)} with no end date. Change that assignment's dates instead, or pick dates outside it.`,
  );

  // Ends before it starts: said before sending, in words; the API refuses it too (422 on effective_to).
  const backwards = { ...overlapping, effective_from: inQuarter(-2).date, effective_to: inQuarter(-1).date };
  let sent = 0;
  page.on("request", (req) => {
    if (req.method() === "POST" && req.url().endsWith(`/comp-plans/${plan.id}/assignments`)) sent++;
  });
  await fromField.fill(backwards.effective_from);
  await form.getByLabel("Effective to").fill(backwards.effective_to);
  await form.getByRole("button", { name: "Add assignment" }).click();
  await expect(form.getByLabel("Effective to")).toHaveAttribute("aria-invalid", "true");
  await expect(
    form.getByText(`Pick an end date on or after the start (${day(backwards.effective_from)}).`),
  ).toBeVisible();
  expect(sent).toBe(0);
  const invalid = await admin("POST", `/comp-plans/${plan.id}/assignments`, backwards);
  expect(invalid.status).toBe(422);
  expect(invalid.body.error.details.map((d: any) => d.param)).toEqual(["effective_to"]);
  expect((await admin("GET", `/comp-plans/${plan.id}/assignments`)).body.meta.total).toBe(2);

  // Change the quota override, then end it.
  const assignment = listed.body.data.find((a: any) => a.user_id === rep.id);
  const row = page.locator(`tr[data-assignment-id="${assignment.id}"]`);
  await row.getByRole("button", { name: `Edit ${rep.name}'s assignment` }).click();
  await page.getByRole("dialog").getByLabel("Quota override").fill("60000");
  await page.getByRole("dialog").getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(row.locator('[data-col="quota-override"]')).toHaveText(money(60000));
  expect((await admin("GET", `/comp-plans/${plan.id}/assignments?user_id=${rep.id}`)).body.data[0].quota_override).toBe(
    60000,
  );

  const end = inQuarter(-1, -1).date;
  await row.getByRole("button", { name: `End ${rep.name}'s assignment` }).click();
  await page.getByRole("dialog").getByLabel("Last day in force").fill(end);
  await page.getByRole("dialog").getByRole("button", { name: "End assignment" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  const ended = (await admin("GET", `/comp-plans/${plan.id}/assignments?user_id=${rep.id}`)).body.data[0];
  expect(ended.effective_to).toBe(end);

  // Delete the other rep's assignment.
  const second = listed.body.data.find((a: any) => a.user_id === reps[1]!.id);
  await page
    .locator(`tr[data-assignment-id="${second.id}"]`)
    .getByRole("button", { name: `Delete ${reps[1]!.name}'s assignment` })
    .click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.locator(`tr[data-assignment-id="${second.id}"]`)).toHaveCount(0);
  const left = await admin("GET", `/comp-plans/${plan.id}/assignments`);
  expect(left.body.data.map((a: any) => a.id)).toEqual([assignment.id]);
  expect(problems).toEqual([]);
});

test("the plan list is the API's, filtered by status", async ({ page, problems }) => {
  const draft = await asAdmin("POST", "/comp-plans", {
    name: `Plans spec draft ${unique()}`,
    status: "draft",
    period: "month",
    currency: "EUR",
    base_rate: 0.05,
    effective_from: inQuarter(0).date,
  });
  const admin = await apiAs(state().users.admin);
  await signIn(page, state().users.admin, "/plans");
  await settled(page);
  const all = await admin("GET", "/comp-plans?per_page=25");
  const rows = page.getByRole("table", { name: "Plans" }).locator("tbody tr");
  await expect(rows).toHaveCount(all.body.data.length);
  await expect(page.getByText(`${all.body.meta.total} plan`)).toBeVisible();

  await page.getByRole("combobox", { name: "Status" }).click();
  await page.getByRole("option", { name: "Draft" }).click();
  const drafts = await admin("GET", "/comp-plans?status=draft&per_page=25");
  await expect(rows).toHaveCount(drafts.body.data.length);
  for (const plan of drafts.body.data) {
    const row = page.locator(`tr[data-plan-id="${plan.id}"]`);
    await expect(row.getByRole("link", { name: plan.name })).toBeVisible();
    await expect(row.locator('[data-col="status"]')).toHaveText("draft");
    await expect(row.locator('[data-col="version"]')).toHaveText(`v${plan.version}`);
    await expect(row.locator('[data-col="currency"]')).toHaveText(plan.currency);
  }
  await expect(page.locator(`tr[data-plan-id="${draft.id}"]`)).toBeVisible();
  expect(problems).toEqual([]);
});

test("a rep who opens /plans gets the not-allowed page and no Plans link", async ({ page, problems }) => {
  const rita: SeededUser = state().users.rita;
  await signIn(page, rita, "/plans");
  await expect(page.getByRole("heading", { name: "You are not allowed to open this page" })).toBeVisible();
  await expect(page.getByText("It is for finance or admin users.")).toBeVisible();
  await expect(
    page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Plans", exact: true }),
  ).toHaveCount(0);
  const asRita = await apiAs(rita);
  expect((await asRita("POST", `/comp-plans/${state().planId}/impact`, {})).status).toBe(403);
  expect(problems).toEqual([]);
});

test("finance reads a plan and previews a change's impact, with no control that changes anything", async ({
  page,
  problems,
}) => {
  const { plan } = await planWorld("finance");
  await signIn(page, state().users.finance, `/plans/${plan.id}`);
  await settled(page);
  await expect(page.getByRole("heading", { name: plan.name })).toBeVisible();
  await expect(page.getByTestId("assignments").locator("tbody tr")).toHaveCount(2);
  await expect(page.getByTestId("plan-versions").locator("tbody tr")).toHaveCount(1);
  for (const name of ["Edit terms", "Add assignment", "End", "Edit", "Delete", "Duplicate", "Publish"]) {
    await expect(page.getByRole("button", { name, exact: true })).toHaveCount(0);
  }
  await expect(page.getByRole("form", { name: "Add an assignment" })).toHaveCount(0);

  await previewRateChange(page, "Try a change");
  const finance = await apiAs(state().users.finance);
  const impact = await finance("POST", `/comp-plans/${plan.id}/impact?per_page=10`, { tiers: NEW_TIERS });
  expect(impact.status).toBe(200);
  await expectImpactAsApi(page, impact.body);
  await expect(page.getByRole("button", { name: /^Apply/ })).toHaveCount(0);
  expect((await asAdmin("GET", `/comp-plans/${plan.id}`)).version).toBe(1);
  expect(problems).toEqual([]);
});

/** More lines than the e2e server computes inline (CTS_PLAN_IMPACT_INLINE_LINES=200 in global-setup.ts). */
const LARGE_PLAN_DEALS = 205;

/** A plan with one rep and LARGE_PLAN_DEALS pending deals this quarter, made through POST /deals/bulk. */
async function largePlan(): Promise<{ plan: any; size: number }> {
  const from = inQuarter(2).date;
  const plan = await asAdmin("POST", "/comp-plans", {
    name: `Plans spec job ${unique()}`,
    description: "Made by e2e/plans.spec.ts: more lines than the e2e server's inline impact limit",
    period: "quarter",
    quota: 1000000, // above the deals' sum, so every line is in the first tier and moves with its rate
    tiers: [
      { from_attainment: 0, rate: 0.1 },
      { from_attainment: 1, rate: 0.15 },
    ],
    effective_from: from,
  });
  const rep = await asAdmin("POST", "/users", {
    name: "Jo Bulk Planner",
    email: `jo.bulk.${unique()}@e2e.example.com`,
  });
  await asAdmin("POST", `/comp-plans/${plan.id}/assignments`, { user_id: rep.id, effective_from: from });
  const batch = unique();
  const deals = Array.from({ length: LARGE_PLAN_DEALS }, (_, i) => ({
    external_id: `e2e-plans-job-${batch}-${i}`,
    opportunity_name: `Plans spec job deal ${i}`,
    arr_amount: 1000 + i * 10,
    close_date: inQuarter(0, i % 28).date,
    owner_id: rep.id,
  }));
  const created = await asAdmin("POST", "/deals/bulk", { deals });
  expect(created.meta.created).toBe(LARGE_PLAN_DEALS);
  return { plan, size: LARGE_PLAN_DEALS };
}

test("a large plan's impact answered with a job (202) is polled until the job holds it", async ({ page, problems }) => {
  test.slow(); // 205 deals, a job and an impact of 205 lines on a loaded 2-core machine
  const { plan, size } = await largePlan();
  await signIn(page, state().users.admin, `/plans/${plan.id}`);
  await settled(page);
  await page.getByRole("button", { name: "Edit terms" }).click();
  await page.getByRole("textbox", { name: "Tier 1 rate" }).fill("12");
  // What the real server answered the page: the preview, then each poll of the job.
  const polled: string[] = [];
  page.on("response", async (res) => {
    if (res.request().method() === "GET" && /\/api\/v1\/jobs\/[^/?]+$/.test(new URL(res.url()).pathname)) {
      polled.push(res.status() === 200 ? (await res.json()).status : `HTTP ${res.status()}`);
    }
  });
  const previewed = page.waitForResponse(
    (res) =>
      res.request().method() === "POST" && new URL(res.url()).pathname === `/api/v1/comp-plans/${plan.id}/impact`,
  );
  await page.getByRole("button", { name: "Preview impact" }).click();
  const answer = await previewed;
  expect(answer.status()).toBe(202);
  const accepted = await answer.json();
  expect(accepted).toMatchObject({ kind: "plan_impact", total: size });

  await expect(page.getByTestId("impact-summary")).toBeVisible({ timeout: waitOf(60_000) });
  const job = await asAdmin("GET", `/jobs/${accepted.id}`);
  expect(job.status).toBe("succeeded");
  expect(job.done).toBe(size);
  // Every one of the rep's lines moves with the first tier's rate, and the page shows the first ten.
  expect(job.result.summary.lines).toBe(size);
  expect(job.result.lines.meta.total).toBe(size);
  await expectImpactAsApi(page, job.result);
  expect(polled.length).toBeGreaterThanOrEqual(1);
  expect(polled.at(-1)).toBe("succeeded");
  expect(polled.filter((s) => s !== "succeeded").every((s) => s === "queued" || s === "running")).toBe(true);
  await expect(page.getByRole("button", { name: "Apply", exact: true })).toBeVisible();
  expect(problems).toEqual([]);
});

for (const width of [1280, 360]) {
  test(`the plan page with a change's impact open at ${width} px has no serious or critical accessibility violation`, async ({
    page,
    problems,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    // The seed's plan, previewed only: the impact writes nothing.
    await signIn(page, state().users.admin, `/plans/${state().planId}`);
    await settled(page);
    await page.getByRole("button", { name: "Edit terms" }).click();
    await page.getByRole("textbox", { name: "Tier 1 rate" }).fill("9");
    await page.getByRole("button", { name: "Preview impact" }).click();
    await expect(page.getByTestId("impact-line").first()).toBeVisible();
    await settled(page);
    await page.mouse.move(0, 0);
    // Legacy mode: axe in the page itself (the console has no frames; see axe.ts).
    const { violations } = await new AxeBuilder({ page })
      .options({ resultTypes: ["violations"] })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
      .setLegacyMode()
      .analyze();
    const serious = violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
    expect(serious).toEqual([]);
    expect(problems).toEqual([]);
  });
}
