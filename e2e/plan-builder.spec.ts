import type { Page } from "@playwright/test";
import { asAdmin, state } from "./api.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";

// The plan builder (issue #30): an admin builds a tiered plan in percent, saves it as a draft, tries it
// on a sample deal, publishes it and assigns it from the plan and from a person. Every number the page
// shows is compared with what the API answers for the same request.

test.use({ locale: "en-US" });

const money = (amount: number, currency = "USD") =>
  new Intl.NumberFormat("en-US", { style: "currency", currency, minimumFractionDigits: 2 }).format(amount);
/** As lib/format.ts date: "2026-07-15" → "Jul 15, 2026". */
const day = (isoDate: string) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${isoDate}T00:00:00Z`));
/** As lib/format.ts percent(…, 4): 0.205 → "20.5%". */
const pct = (ratio: number) =>
  new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 4 }).format(ratio);

/** The first day of this quarter, plus `days`. */
function quarterStart(days = 0): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), Math.floor(now.getUTCMonth() / 3) * 3, 1 + days))
    .toISOString()
    .slice(0, 10);
}

let count = 0;
const unique = () => `${Date.now()}.${++count}`;

async function newRep(name: string): Promise<{ id: string; name: string; email: string }> {
  const email = `${name.toLowerCase().replace(/[^a-z]+/g, ".")}.${unique()}@e2e.example.com`;
  const user = await asAdmin("POST", "/users", { name, email });
  return { id: user.id, name, email };
}

/** Every POST /comp-plans the page sends, so a test can tell the form kept one back. */
function plansPosted(page: Page): string[] {
  const posted: string[] = [];
  page.on("request", (req) => {
    if (req.method() === "POST" && new URL(req.url()).pathname === "/api/v1/comp-plans") posted.push(req.postData()!);
  });
  return posted;
}

async function pick(page: Page, combobox: ReturnType<Page["getByRole"]>, option: string | RegExp): Promise<void> {
  await combobox.click();
  await page.getByRole("option", { name: option }).click();
}

test("an admin builds a tiered plan in percent, tries it as the API prices it, publishes it and assigns two reps; an overlap is a sentence", async ({
  page,
  problems,
}) => {
  test.slow(); // a plan built field by field, a preview, a publish, two assignments and a refusal
  const admin = state().users.admin;
  const api = await apiAs(admin);
  const [pia, ole] = [await newRep("Pia Builder"), await newRep("Ole Builder")];
  // Ole is on an older plan until ten days into this quarter: the new one may only start after that.
  const oldPlan = await asAdmin("POST", "/comp-plans", {
    name: `Builder old plan ${unique()}`,
    period: "quarter",
    base_rate: 0.05,
    effective_from: "2020-01-01",
  });
  const oldEnd = quarterStart(9);
  await asAdmin("POST", `/comp-plans/${oldPlan.id}/assignments`, {
    user_id: ole.id,
    effective_from: "2020-01-01",
    effective_to: oldEnd,
  });
  const posted = plansPosted(page);

  await signIn(page, admin, "/plans");
  await settled(page);
  await page.getByRole("button", { name: "New plan" }).click();
  const builder = page.getByRole("dialog", { name: "New plan" });

  // Saving the blank form sends nothing: what is missing is said in words, on its fields.
  await builder.getByRole("button", { name: "Save as draft" }).click();
  await expect(builder.getByText("Give the plan a name.")).toBeVisible();
  await expect(builder.getByText("Give the quota the tiers are measured against.")).toBeVisible();
  await expect(builder.getByText("Give tier 1's rate in percent (10 for 10%).")).toBeVisible();
  await expect(builder.getByTestId("plan-problems")).toContainText("fields need a change");
  await expect(builder.getByRole("textbox", { name: "Name", exact: true })).toBeFocused();
  expect(posted).toEqual([]);

  const name = `Builder AE ${unique()}`;
  await builder.getByRole("textbox", { name: "Name", exact: true }).fill(name);
  await builder.getByRole("textbox", { name: /^Quota per period/ }).fill("50000");
  await builder.getByRole("textbox", { name: /^Cap per period/ }).fill("25000");
  await builder.getByLabel("Effective from").fill(quarterStart());
  await builder.getByRole("textbox", { name: "Tier 1 rate" }).fill("10");
  await builder.getByRole("textbox", { name: "Tier 2 rate" }).fill("13");
  await builder.getByRole("button", { name: "Add a tier" }).click();
  // A band that starts below the one before it: said before anything is sent.
  await builder.getByRole("textbox", { name: "Tier 3 starts at" }).fill("90");
  await builder.getByRole("textbox", { name: "Tier 3 rate" }).fill("20.5");
  await builder.getByRole("button", { name: "Add a multiplier" }).click();
  await pick(page, builder.getByRole("combobox", { name: "Multiplier 1 deal type" }), "Renewal");
  await builder.getByRole("textbox", { name: "Multiplier 1 factor" }).fill("0.5");
  await builder.getByRole("button", { name: "Save as draft" }).click();
  await expect(
    builder.getByText(
      "Start tier 3 above 100% of quota, where tier 2 starts: each tier starts where the one before it ends.",
    ),
  ).toBeVisible();
  await expect(builder.getByRole("textbox", { name: "Tier 3 starts at" })).toBeFocused();
  expect(posted).toEqual([]);
  await builder.getByRole("textbox", { name: "Tier 3 starts at" }).fill("150");
  await expect(builder.getByTestId("plan-problems")).toHaveCount(0);
  await expect(builder.getByTestId("bands-in-words")).toHaveText(
    "Credit up to 100% of quota earns 10%; from 100% to 150%, 13%; above 150%, 20.5%.",
  );

  // A code of the right shape that is no currency: only the API knows; its 422 is said in the same words.
  await builder.getByRole("textbox", { name: "Currency" }).fill("XYZ");
  await builder.getByRole("button", { name: "Save as draft" }).click();
  const refusal = await api("POST", "/comp-plans", JSON.parse(posted[0]!));
  expect(refusal.status).toBe(422);
  expect(refusal.body.error.details.map((d: any) => d.param)).toEqual(["currency"]);
  await expect(builder.getByText("XYZ is not a currency code in use: give one such as USD or EUR.")).toBeVisible();
  await builder.getByRole("textbox", { name: "Currency" }).fill("USD");
  await builder.getByRole("button", { name: "Save as draft" }).click();
  await expect(page).toHaveURL(/\/plans\/plan_/);
  const planId = new URL(page.url()).pathname.split("/").at(-1)!;

  // Read back from the API: a draft with exactly the rates typed, as ratios.
  const plan = (await api("GET", `/comp-plans/${planId}`)).body;
  expect(plan).toMatchObject({ name, status: "draft", currency: "USD", period: "quarter", quota: 50000 });
  expect(plan.tiers).toEqual([
    { from_attainment: 0, rate: 0.1 },
    { from_attainment: 1, rate: 0.13 },
    { from_attainment: 1.5, rate: 0.205 },
  ]);
  expect(plan.deal_type_multipliers).toEqual({ renewal: 0.5 });
  expect(plan.cap_per_period).toBe(25000);
  expect(posted).toHaveLength(2);
  await settled(page);
  const tierRows = page.getByTestId("tier-table").locator("tbody tr");
  await expect(tierRows).toHaveCount(plan.tiers.length);
  for (const [i, tier] of plan.tiers.entries()) {
    await expect(tierRows.nth(i).locator('[data-col="rate"]')).toHaveText(pct(tier.rate));
  }

  // Tried on a sample deal: the page's lines are the API's preview of the same deal under the draft.
  const sample = page.getByRole("form", { name: "Sample deal" });
  await sample.getByRole("textbox", { name: /^ARR amount/ }).fill("80000");
  await sample.getByRole("button", { name: "Preview commission" }).click();
  await expect(page.getByTestId("tryout-total")).toBeVisible();
  const preview = await api("POST", "/commissions/preview", {
    opportunity_name: "Sample deal",
    arr_amount: 80000,
    currency: "USD",
    deal_type: "new_business",
    close_date: await sample.getByLabel("Close date").inputValue(),
    owner_id: admin.id,
    plan_id: planId,
  });
  expect(preview.status).toBe(200);
  const planLine = preview.body.lines.find((l: any) => l.kind === "plan");
  expect(planLine.plan_id).toBe(planId);
  await expect(page.getByTestId("tryout-total")).toHaveText(money(preview.body.total_commission));
  const lines = page.getByTestId("tryout-line");
  await expect(lines).toHaveCount(preview.body.lines.length);
  for (const [i, line] of preview.body.lines.entries()) {
    await expect(lines.nth(i)).toHaveAttribute("data-kind", line.kind);
    await expect(lines.nth(i).getByTestId("line-amount")).toHaveText(money(line.amount));
    await expect(lines.nth(i).getByTestId("explanation-summary")).toHaveText(line.explanation.summary);
  }

  // Published: active, as the API has it.
  await page.getByRole("button", { name: "Publish" }).click();
  await page
    .getByRole("dialog", { name: `Publish ${name}?` })
    .getByRole("button", { name: "Publish" })
    .click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Publish" })).toHaveCount(0);
  expect((await api("GET", `/comp-plans/${planId}`)).body.status).toBe("active");

  // Pia from the plan's page.
  const form = page.getByRole("form", { name: "Add an assignment" });
  await pick(page, form.getByRole("combobox", { name: "Person" }), new RegExp(`^${pia.name} `));
  await form.getByRole("button", { name: "Add assignment" }).click();
  const rows = page.getByTestId("assignments").locator("tbody tr");
  await expect(rows).toHaveCount(1);
  const assigned = (await api("GET", `/comp-plans/${planId}/assignments`)).body.data;
  expect(assigned.map((a: any) => [a.user_id, a.effective_from, a.effective_to])).toEqual([
    [pia.id, plan.effective_from, null],
  ]);
  await expect(rows.first()).toContainText(pia.name);

  // Ole from his row on the people page: the plan's first day overlaps his older plan (409), said as a
  // sentence naming it and its dates as the API has them; a day after it ends is taken.
  await page.goto(`/people?email=${encodeURIComponent(ole.email)}`);
  await settled(page);
  await page.getByRole("button", { name: `Actions for ${ole.name}` }).click();
  await page.getByRole("menuitem", { name: "Assign a plan" }).click();
  const dialog = page.getByRole("dialog", { name: `Assign a plan to ${ole.name}` });
  await expect(dialog.getByTestId("current-assignments")).toContainText(oldPlan.name);
  await pick(page, dialog.getByRole("combobox", { name: "Plan" }), name);
  await expect(dialog.getByLabel("Effective from")).toHaveValue(plan.effective_from);
  await dialog.getByRole("textbox", { name: "Quota override" }).fill("60000");
  await dialog.getByRole("button", { name: "Assign plan" }).click();
  const overlap = { user_id: ole.id, effective_from: plan.effective_from, effective_to: null, quota_override: 60000 };
  const conflict = await api("POST", `/comp-plans/${planId}/assignments`, overlap);
  expect(conflict.status).toBe(409);
  expect(conflict.body.error.code).toBe("conflict");
  const theirs = (await api("GET", `/plan-assignments?user_id=${ole.id}`)).body.data;
  expect(theirs).toHaveLength(1);
  const blocking = theirs[0];
  const blockingPlan = (await api("GET", `/comp-plans/${blocking.plan_id}`)).body;
  await expect(dialog.getByTestId("assignment-overlap")).toContainText(
    `${ole.name} is already on ${blockingPlan.name} from ${day(blocking.effective_from)} to ${day(blocking.effective_to)}, and a person has one plan at a time. End that assignment first, or pick dates outside it.`,
  );
  await expect(dialog.getByLabel("Effective from")).toHaveAttribute("aria-invalid", "true");
  const dayAfter = quarterStart(10);
  await dialog.getByLabel("Effective from").fill(dayAfter);
  await dialog.getByRole("button", { name: "Assign plan" }).click();
  await expect(dialog).toHaveCount(0);
  const oles = (await api("GET", `/comp-plans/${planId}/assignments?user_id=${ole.id}`)).body.data;
  expect(oles.map((a: any) => [a.effective_from, a.effective_to, a.quota_override])).toEqual([[dayAfter, null, 60000]]);

  // Back on the plan: both, as the API lists them.
  await page.goto(`/plans/${planId}`);
  await settled(page);
  const listed = (await api("GET", `/comp-plans/${planId}/assignments`)).body.data;
  expect(listed).toHaveLength(2);
  for (const a of listed) {
    const row = page.locator(`tr[data-assignment-id="${a.id}"]`);
    await expect(row.locator('[data-col="from"]')).toHaveText(day(a.effective_from));
    await expect(row.locator('[data-col="quota-override"]')).toHaveText(
      a.quota_override === null ? "—" : money(a.quota_override),
    );
  }
  expect(problems).toEqual([]);
});

test("Duplicate opens the builder with the plan's terms in percent, named Copy of …, and saves a new draft", async ({
  page,
  problems,
}) => {
  const source = await asAdmin("POST", "/comp-plans", {
    name: `Builder source ${unique()}`,
    period: "month",
    currency: "EUR",
    quota: 20000,
    tiers: [
      { from_attainment: 0, rate: 0.0575 },
      { from_attainment: 1.25, rate: 0.115 },
    ],
    deal_type_multipliers: { expansion: 1.2 },
    min_deal_amount: 500,
    effective_from: quarterStart(),
  });
  await signIn(page, state().users.admin, `/plans/${source.id}`);
  await settled(page);
  await page.getByRole("button", { name: "Duplicate" }).click();
  const builder = page.getByRole("dialog", { name: `Duplicate ${source.name}` });
  await expect(builder.getByRole("textbox", { name: "Name", exact: true })).toHaveValue(`Copy of ${source.name}`);
  await expect(builder.getByRole("textbox", { name: "Tier 1 rate" })).toHaveValue("5.75");
  await expect(builder.getByRole("textbox", { name: "Tier 2 starts at" })).toHaveValue("125");
  await expect(builder.getByRole("textbox", { name: "Tier 2 rate" })).toHaveValue("11.5");
  await expect(builder.getByRole("textbox", { name: "Multiplier 1 factor" })).toHaveValue("1.2");
  await builder.getByRole("button", { name: "Save as draft" }).click();
  await expect(page).toHaveURL((url) => url.pathname.startsWith("/plans/plan_") && !url.pathname.endsWith(source.id));
  const copyId = new URL(page.url()).pathname.split("/").at(-1)!;
  const copy = await asAdmin("GET", `/comp-plans/${copyId}`);
  expect(copy.name).toBe(`Copy of ${source.name}`);
  expect(copy.status).toBe("draft");
  const terms = (p: any) => {
    const { id, name, status, version, created_at, updated_at, ...rest } = p;
    return rest;
  };
  expect(terms(copy)).toEqual(terms(await asAdmin("GET", `/comp-plans/${source.id}`)));
  expect((await asAdmin("GET", `/comp-plans/${source.id}`)).version).toBe(source.version);
  expect(problems).toEqual([]);
});

test("an admin builds an override plan: levels in percent by depth, none of a standard plan's terms; the API holds what was typed", async ({
  page,
  problems,
}) => {
  const admin = state().users.admin;
  const api = await apiAs(admin);
  const posted = plansPosted(page);
  await signIn(page, admin, "/plans");
  await settled(page);
  await page.getByRole("button", { name: "New plan" }).click();
  const builder = page.getByRole("dialog", { name: "New plan" });

  await builder.getByText("Override", { exact: true }).click();
  // An override plan has no quota, tiers, base rate, multipliers, minimum or cap: its levels instead.
  await expect(builder.getByRole("textbox", { name: /^Quota per period/ })).toHaveCount(0);
  await expect(builder.getByRole("textbox", { name: /^Cap per period/ })).toHaveCount(0);
  await expect(builder.getByTestId("tier-editor")).toHaveCount(0);
  await expect(builder.getByRole("button", { name: "Add a multiplier" })).toHaveCount(0);
  await expect(builder.getByTestId("level-row")).toHaveCount(1);

  const name = `Builder overrides ${unique()}`;
  await builder.getByRole("textbox", { name: "Name", exact: true }).fill(name);
  await builder.getByLabel("Effective from").fill(quarterStart());
  // A level without its rate: said before anything is sent.
  await builder.getByRole("button", { name: "Save as draft" }).click();
  await expect(builder.getByText("Give the rate at depth 1 in percent (3 for 3%).")).toBeVisible();
  await expect(builder.getByRole("textbox", { name: "Level 1 rate (%)" })).toBeFocused();
  expect(posted).toEqual([]);

  await builder.getByRole("textbox", { name: "Level 1 rate (%)" }).fill("3");
  await builder.getByRole("button", { name: "Add a level" }).click();
  await builder.getByRole("textbox", { name: "Level 2 rate (%)" }).fill("1.25");
  // The same depth twice is refused by the form; the next depth is taken.
  await pick(page, builder.getByRole("combobox", { name: "Level 2 depth" }), "1 (direct reports)");
  await expect(builder.getByText("Depth 1 already has a rate: each depth takes one.")).toBeVisible();
  await pick(page, builder.getByRole("combobox", { name: "Level 2 depth" }), "2 levels below");
  await expect(builder.getByTestId("plan-problems")).toHaveCount(0);
  await expect(builder.getByTestId("levels-in-words")).toHaveText(
    "The manager earns 3% on their direct reports' credits; 1.25% on credits 2 levels below.",
  );
  await builder.getByRole("button", { name: "Save as draft" }).click();
  await expect(page).toHaveURL(/\/plans\/plan_/);
  const planId = new URL(page.url()).pathname.split("/").at(-1)!;

  // What was typed, as the API holds it: an override plan, the rates as ratios, nothing of a standard plan's.
  expect(posted).toHaveLength(1);
  expect(Object.keys(JSON.parse(posted[0]!)).sort()).toEqual([
    "clawback",
    "currency",
    "description",
    "effective_from",
    "effective_to",
    "kind",
    "name",
    "override_levels",
    "period",
    "status",
  ]);
  const plan = (await api("GET", `/comp-plans/${planId}`)).body;
  expect(plan).toMatchObject({
    name,
    kind: "override",
    status: "draft",
    currency: "USD",
    period: "quarter",
    quota: null,
    base_rate: null,
    tiers: [],
    deal_type_multipliers: {},
    min_deal_amount: null,
    cap_per_period: null,
    effective_from: quarterStart(),
  });
  expect(plan.override_levels).toEqual([
    { depth: 1, rate: 0.03 },
    { depth: 2, rate: 0.0125 },
  ]);

  // The plan's page shows the levels as the API has them; no sample deal (a preview pays no manager).
  await settled(page);
  const levelRows = page.getByTestId("level-table").locator("tbody tr");
  await expect(levelRows).toHaveCount(plan.override_levels.length);
  for (const [i, level] of plan.override_levels.entries()) {
    await expect(levelRows.nth(i).locator('[data-col="depth"]')).toHaveText(String(level.depth));
    await expect(levelRows.nth(i).locator('[data-col="rate"]')).toHaveText(pct(level.rate));
  }
  await expect(page.getByRole("form", { name: "Sample deal" })).toHaveCount(0);
  await expect(page.getByTestId("tier-table")).toHaveCount(0);

  // Editing keeps the kind fixed: no way to pick another.
  await page.getByRole("button", { name: "Edit terms" }).click();
  await expect(page.getByTestId("plan-kind")).toContainText("Override");
  await expect(page.getByRole("radio", { name: "Standard" })).toHaveCount(0);
  await expect(page.getByRole("textbox", { name: "Level 2 rate (%)" })).toHaveValue("1.25");
  await page.getByRole("button", { name: "Cancel" }).click();

  // Published: active, as the API has it.
  await page.getByRole("button", { name: "Publish" }).click();
  await page
    .getByRole("dialog", { name: `Publish ${name}?` })
    .getByRole("button", { name: "Publish" })
    .click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  expect((await api("GET", `/comp-plans/${planId}`)).body.status).toBe("active");
  expect(problems).toEqual([]);
});
