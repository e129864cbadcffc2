import { AxeBuilder } from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { state } from "./api.js";
import { apiAs, expect, signIn, signOut, test } from "./fixtures.js";

/** A shown amount ("$1,728.042", "-$12.50") in millionths, exactly: the test adds what the page shows. */
function micros(text: string): bigint {
  const negative = text.includes("-") || text.includes("−");
  const [whole, fraction = ""] = text.replace(/[^\d.]/g, "").split(".");
  const value = BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, "0").slice(0, 6));
  return negative ? -value : value;
}

/** Millionths to cents, half away from zero (the engine's rounding of a line). */
const cents = (m: bigint) => (m >= 0n ? (m + 5_000n) / 10_000n : -((-m + 5_000n) / 10_000n));

/** A full-page picture at this width, after the frame's navbar transition has settled (a picture, not an assertion). */
/** A full-page picture at that width, for a person to look at (the test's output folder). */
async function shoot(page: Page, width: number, path: string): Promise<void> {
  await page.setViewportSize({ width, height: 800 });
  await page.waitForTimeout(500);
  await page.screenshot({ path, fullPage: true });
}

/** The page's serious and critical axe violations, by rule id (none expected). */
async function axeProblems(page: Page): Promise<string[]> {
  // Judged at rest: a link the pointer last clicked would be read in its hover colours.
  await page.mouse.move(0, 0);
  // Legacy mode: axe in the page itself (the console has no frames; see axe.ts).
  const { violations } = await new AxeBuilder({ page })
    .options({ resultTypes: ["violations"] })
    .setLegacyMode()
    .analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")} ${n.html.slice(0, 80)}`));
}

/** How the page formats money, asked of the page's own Intl (the browser's locale). */
const formatted = (page: Page, amount: number, currency: string) =>
  page.evaluate(
    ([value, code]) =>
      new Intl.NumberFormat(undefined, { style: "currency", currency: code, minimumFractionDigits: 2 }).format(value),
    [amount, currency] as [number, string],
  );

/**
 * The bands' commissions added up exactly: each cell shows its amount to the cent, with the exact
 * value (more places) as its tooltip when it has one.
 */
async function bandSum(line: Locator): Promise<bigint> {
  const cells = await line.getByTestId("band-commission").all();
  expect(cells.length).toBeGreaterThan(0);
  let sum = 0n;
  for (const cell of cells) {
    const text = (await cell.textContent())!;
    expect(text).toMatch(/[.,]\d{2}$/); // to the cent
    const exact = cell.locator("[title]");
    sum += micros((await exact.count()) > 0 ? (await exact.getAttribute("title"))! : text);
  }
  return sum;
}

interface ApiLine {
  id: string;
  kind: string;
  amount: number;
  explanation: { bands?: { commission: string }[]; multiplier?: string; cap?: unknown };
}

test("each plan line's band table adds up to the line's amount, as the API gives it", async ({ page, problems }) => {
  const { users, deals, currency } = state();
  const rita = await apiAs(users.rita);
  await signIn(page, users.rita);
  for (const dealId of [deals.ritaApproved, deals.ritaPending]) {
    const { body: deal } = await rita<{ opportunity_name: string; commissions: ApiLine[] }>("GET", `/deals/${dealId}`);
    await page.goto(`/deals/${dealId}`);
    await expect(page.getByRole("heading", { name: deal.opportunity_name })).toBeVisible();
    await expect(page.getByTestId("commission-line")).toHaveCount(deal.commissions.length);
    for (const line of deal.commissions.filter((l) => l.kind === "plan")) {
      const card = page.locator(`[data-line-id="${line.id}"]`);
      const shownAmount = await card.getByTestId("line-amount").textContent();
      expect(shownAmount).toBe(await formatted(page, line.amount, currency));
      expect(line.explanation.multiplier).toBe("1");
      expect(cents(await bandSum(card))).toBe(cents(micros(shownAmount!)));
      expect(cents(micros(shownAmount!))).toBe(BigInt(Math.round(line.amount * 100)));
      // The bands the credit spans: one row each, those past the first marked as a crossing.
      const bands = line.explanation.bands!;
      await expect(card.getByTestId("band-commission")).toHaveCount(bands.length);
      await expect(card.getByTestId("tier-crossing")).toHaveCount(bands.length > 1 ? 1 : 0);
    }
    if (dealId === deals.ritaPending) {
      // Rita's 70 % of "Initech new logo" takes her from 85 % to past 100 % of quota: two bands.
      const plan = deal.commissions.find((l) => l.kind === "plan")!;
      expect(plan.explanation.bands!.length).toBe(2);
      expect(await axeProblems(page)).toEqual([]);
    }
  }
  expect(problems).toEqual([]);
});

interface ApiDealView {
  total_commission: number;
  total_commission_scope: string;
  owner_id: string;
  splits: { user_id: string; percent: number }[];
  people: { user_id: string; name: string }[];
  commissions: { user_id: string; amount: number; status: string }[];
}

test("a split deal shows rita her commission and her partner by name, and her lead the team's, as the API gives them", async ({
  page,
  problems,
}) => {
  const { users, deals, currency } = state();
  const dealId = deals.ritaPending; // Rita 70 %, Ravi 30 %
  const { body: whole } = await (await apiAs(users.admin))<ApiDealView>("GET", `/deals/${dealId}`);
  const cases = [
    { who: users.rita, label: "Your commission" },
    { who: users.lead, label: "Your team's commission" },
  ];
  for (const { who, label } of cases) {
    const { body: seen } = await (await apiAs(who))<ApiDealView>("GET", `/deals/${dealId}`);
    expect(seen.total_commission_scope).toBe("visible");
    await signIn(page, who, `/deals/${dealId}`);
    await expect(page.getByTestId("deal-total-label")).toHaveText(label);
    await expect(page.getByTestId("deal-total")).toHaveText(await formatted(page, seen.total_commission, currency));
    // The people on the deal by the names the API gives this reader (Rita cannot list Ravi among her users).
    const nameOf = (id: string) => seen.people.find((p) => p.user_id === id)!.name;
    const splits = seen.splits.map((s) => `${nameOf(s.user_id)} ${s.percent}%`).join(", ");
    await expect(page.getByText(splits, { exact: true })).toBeVisible();
    expect(splits).toContain(users.ravi.name);
    if (who === users.rita) {
      // First on the page: her own lines' total, to the cent, with her split's percent.
      const ownCents = seen.commissions
        .filter((line) => line.user_id === who.id && line.status !== "void")
        .reduce((sum, line) => sum + Math.round(line.amount * 100), 0);
      expect(ownCents).toBe(Math.round(seen.total_commission * 100));
      await expect(page.getByTestId("deal-total")).toHaveText(await formatted(page, ownCents / 100, currency));
      const ownPercent = seen.splits.find((s) => s.user_id === who.id)!.percent;
      await expect(page.getByTestId("deal-total-hint")).toHaveText(`Your share: ${ownPercent}%`);
      await expect(page.getByTestId("own-commission")).toHaveCount(0);
      // Her share, not the deal's total (that minus her line would be Ravi's pay).
      expect(seen.total_commission).not.toBe(whole.total_commission);
      await expect(page.getByText(await formatted(page, whole.total_commission, currency))).toHaveCount(0);
      expect(await axeProblems(page)).toEqual([]);
      await shoot(page, 1280, test.info().outputPath("split-deal-1280.png"));
    }
    await signOut(page);
  }
  await signIn(page, users.admin, `/deals/${dealId}`);
  await expect(page.getByTestId("deal-total-label")).toHaveText("Total commission");
  await expect(page.getByTestId("deal-total")).toHaveText(await formatted(page, whole.total_commission, currency));
  expect(problems).toEqual([]);
});

test("a 60/40 split on a yearly and a monthly plan: each rep sees their own line first, the partner by name, and disputes their own line", async ({
  page,
  problems,
}) => {
  const { planPeriods, currency } = state();
  const { yearly, monthly, splitDeal } = planPeriods;
  for (const [who, partner] of [
    [monthly, yearly],
    [yearly, monthly],
  ] as const) {
    const { body: seen } = await (await apiAs(who))<ApiDealView & { status: string }>("GET", `/deals/${splitDeal}`);
    expect(seen.status).toBe("approved");
    const own = seen.commissions.filter((line) => line.user_id === who.id && line.status !== "void");
    expect(own.length).toBeGreaterThan(0);
    const ownCents = own.reduce((sum, line) => sum + Math.round(line.amount * 100), 0);
    const share = seen.splits.find((s) => s.user_id === who.id)!.percent;
    expect([share, seen.splits.find((s) => s.user_id === partner.id)!.percent]).toEqual(
      who === yearly ? [60, 40] : [40, 60],
    );

    await signIn(page, who, `/deals/${splitDeal}`);
    // The first amount on the page is their own line, with their share; never the deal's total for both.
    const first = page.getByTestId(/^(own-commission|deal-total)$/).first();
    await expect(first).toHaveText(await formatted(page, ownCents / 100, currency));
    await expect(page.getByTestId(/^(own-commission|deal-total)-label$/).first()).toHaveText("Your commission");
    await expect(page.getByTestId(/^(own-commission|deal-total)-hint$/).first()).toHaveText(`Your share: ${share}%`);
    // The partner by the name the API gives this reader, never by id.
    const partnerName = seen.people.find((p) => p.user_id === partner.id)!.name;
    expect(partnerName).toBe(partner.name);
    const splits = seen.splits.map((s) => `${seen.people.find((p) => p.user_id === s.user_id)!.name} ${s.percent}%`);
    await expect(page.getByText(splits.join(", "), { exact: true })).toBeVisible();
    expect(await page.locator("main").innerText()).not.toContain("usr_");

    // Their dispute is about their own line (API.md §20 b): the form says so and shows it now.
    await page.getByRole("button", { name: "Dispute this" }).click();
    const dialog = page.getByRole("dialog", { name: "Dispute this deal" });
    const field = dialog.getByRole("textbox", { name: "Your expected commission" });
    await expect(field).toBeVisible();
    await expect(dialog).toContainText(
      `The total of your own lines on this deal you expect (now ${await formatted(page, ownCents / 100, currency)})`,
    );
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await signOut(page);
  }
  expect(problems).toEqual([]);
});

test("rita opening paula's deal by its URL gets the not-found page", async ({ page, problems }) => {
  const { users, deals } = state();
  const rita = await apiAs(users.rita);
  expect((await rita("GET", `/deals/${deals.paulaApproved}`)).status).toBe(404);
  await signIn(page, users.rita, `/deals/${deals.paulaApproved}`);
  await expect(page.getByRole("heading", { name: "This deal does not exist" })).toBeVisible();
  expect(problems).toEqual([]);
});

test("rita disputes her approved deal from its page; it then shows in My disputes", async ({ page, problems }) => {
  const { users, deals, currency } = state();
  const rita = await apiAs(users.rita);
  const dealId = deals.ritaToDispute;
  await signIn(page, users.rita, `/deals/${dealId}`);
  await expect(page.getByTestId("deal-status")).toHaveText("approved");
  await page.getByRole("button", { name: "Dispute this" }).click();
  const dialog = page.getByRole("dialog", { name: "Dispute this deal" });
  await dialog.getByRole("combobox", { name: "Reason" }).click();
  await page.getByRole("option", { name: "Wrong amount" }).click();
  await dialog.getByLabel("Description").fill("The renewal should pay the full rate");
  // Her dispute is about her own lines (API.md §20 b): the form asks for her commission, not the deal's total.
  await dialog.getByRole("textbox", { name: "Your expected commission" }).fill("1500");
  await dialog.getByRole("button", { name: "Open dispute" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("deal-status")).toHaveText("disputed");
  await expect(page.getByRole("button", { name: "Dispute this" })).toHaveCount(0);

  const { body: listed } = await rita<{ data: { id: string; reason: string; expected_amount: number | null }[] }>(
    "GET",
    `/disputes?deal_id=${dealId}`,
  );
  expect(listed.data.map((d) => [d.reason, d.expected_amount])).toEqual([["wrong_amount", 1500]]);
  expect((listed.data[0] as { amount_scope?: string }).amount_scope).toBe("user");
  const dispute = listed.data[0]!;
  const expected = await formatted(page, dispute.expected_amount!, currency);
  await expect(page.locator(`[data-dispute-id="${dispute.id}"]`).getByTestId("dispute-expected")).toHaveText(expected);

  await page.getByRole("link", { name: "My disputes" }).click();
  const row = page.locator(`[data-dispute-id="${dispute.id}"]`);
  await expect(row).toContainText("open");
  await expect(row).toContainText("Wrong amount");
  await expect(row.getByTestId("dispute-expected")).toHaveText(expected);
  await expect(row.getByTestId("dispute-scope")).toHaveText("your own lines");
  expect(await axeProblems(page)).toEqual([]);
  for (const width of [1280, 360]) await shoot(page, width, test.info().outputPath(`disputes-${width}.png`));
  await row.getByRole("link", { name: "Stark renewal" }).click();
  await expect(page).toHaveURL(new RegExp(`/deals/${dealId}$`));
  expect(problems).toEqual([]);
});

test("What-if shows the preview API's lines for the same inputs", async ({ page, problems }) => {
  const { users, currency } = state();
  const rita = await apiAs(users.rita);
  await signIn(page, users.rita, "/what-if");
  const closeDate = await page.getByLabel("Close date").inputValue();
  const body = {
    opportunity_name: "What-if deal",
    arr_amount: 48000,
    deal_type: "new_business",
    close_date: closeDate,
    currency,
    owner_id: users.rita.id,
  };
  const { status, body: preview } = await rita<{ lines: ApiLine[]; total_commission: number }>(
    "POST",
    "/commissions/preview",
    body,
  );
  expect(status).toBe(200);

  await page.getByRole("textbox", { name: "ARR amount" }).fill("48000");
  await page.getByRole("button", { name: "Preview commission" }).click();
  await expect(page.getByTestId("preview-line")).toHaveCount(preview.lines.length);
  const shown = await page.getByTestId("preview-line").getByTestId("line-amount").allTextContents();
  const fromApi = await Promise.all(preview.lines.map((l) => formatted(page, l.amount, currency)));
  expect(shown).toEqual(fromApi);
  await expect(page.getByTestId("preview-total")).toHaveText(await formatted(page, preview.total_commission, currency));
  const plan = preview.lines.find((l) => l.kind === "plan")!;
  await expect(page.getByTestId("tier-crossing")).toHaveCount(plan.explanation.bands!.length > 1 ? 1 : 0);

  expect(await axeProblems(page)).toEqual([]);
  for (const width of [1280, 360]) await shoot(page, width, test.info().outputPath(`what-if-${width}.png`));

  // A validation error of the API lands on its field.
  await page.getByRole("textbox", { name: "ARR amount" }).fill("");
  await page.getByRole("button", { name: "Preview commission" }).click();
  await expect(page.getByRole("textbox", { name: "ARR amount" })).toHaveAttribute("aria-invalid", "true");
  expect(problems).toEqual([]);
});
