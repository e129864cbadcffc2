import type { Page } from "@playwright/test";
import { type SeededUser, state } from "./api.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";

// Home beside the current period: what is pending, approved-unpaid and paid from the person's other
// periods (the API's periods, summed here in whole cents), and a plan's cap; What-if's headline when the
// cap cuts a deal. Every figure is the API's.

test.use({ locale: "en-US" });
const money = (amount: number, currency = "USD") =>
  new Intl.NumberFormat("en-US", { style: "currency", currency, minimumFractionDigits: 2 }).format(amount);
const cents = (amount: number) => Math.round(amount * 100);

type Api = Awaited<ReturnType<typeof apiAs>>;

async function periodsOf(api: Api, user: SeededUser): Promise<any[]> {
  const res = await api<any>("GET", `/users/${user.id}/periods?per_page=100`);
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The periods home shows as current: those its current sections are headed with. */
const shownPeriods = (page: Page) => page.locator("section[aria-labelledby^='period-'] h3").allTextContents();

for (const who of ["rita", "monthly", "yearly"] as const) {
  test(`${who}'s home sums the other periods' pending, approved and paid as the API lists them`, async ({
    page,
    problems,
  }) => {
    const user = state().users[who];
    const api = await apiAs(user);
    await signIn(page, user, "/");
    await settled(page);
    const shown = await shownPeriods(page);
    expect(shown.length).toBeGreaterThan(0);
    const earlier = (await periodsOf(api, user)).filter((p) => !p.current && !shown.includes(p.period) && p.lines > 0);
    expect(earlier.length).toBeGreaterThan(0);
    const section = page.getByTestId("earlier-periods");
    for (const status of ["pending", "approved", "paid"] as const) {
      const sum = earlier.reduce((total, p) => total + cents(p.by_status[status]), 0);
      await expect(section.getByTestId(`earlier-${status}`).getByTestId("amount")).toHaveText(money(sum / 100));
    }
    // Every period with money still in flight has its row, linking to its statement.
    for (const p of earlier.filter((e) => e.by_status.pending !== 0 || e.by_status.approved !== 0)) {
      const row = section.locator(`tr[data-period="${p.period}"]`);
      await expect(row.locator('[data-col="pending"]')).toHaveText(money(p.by_status.pending));
      await expect(row.locator('[data-col="approved"]')).toHaveText(money(p.by_status.approved));
      await expect(row.getByRole("link", { name: p.period })).toHaveAttribute(
        "href",
        `/statements/${p.period}?user=${user.id}`,
      );
    }
    expect(problems).toEqual([]);
  });
}

test("a capped rep's home says the cap is reached, with the API's numbers; tier labels stay apart", async ({
  page,
  problems,
}) => {
  const user = state().users.capped;
  const api = await apiAs(user);
  const current = (await periodsOf(api, user)).find((p) => p.current);
  const { body } = await api<any>("GET", `/users/${user.id}/statement?period=${current.period}`);
  const plan = body.plans[0];
  expect(plan.cap_reached).toBe(true);
  expect(plan.attainment_ratio).toBeGreaterThan(1.8);
  await signIn(page, user, "/");
  const card = page.getByTestId(`plan-${plan.plan_id}`);
  await expect(card.getByTestId("cap")).toHaveText(
    `Cap reached: ${money(plan.earned)} of ${money(plan.cap_per_period)} — further deals earn ${money(0)} this period`,
  );
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const boxes = await card
      .locator("[data-testid=tier-label] text")
      .evaluateAll((texts) =>
        texts
          .map((t) => t.getBoundingClientRect())
          .map((r) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom })),
      );
    expect(boxes.length).toBe(plan.tiers.length);
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) {
        const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
        expect(apart, `${width} px: ${JSON.stringify([a, b])}`).toBe(true);
      }
    }
  }
  expect(problems).toEqual([]);
});

test("What-if's headline says the cap is reached and what the deal earns, as the preview API says", async ({
  page,
  problems,
}) => {
  const user = state().users.capped;
  const api = await apiAs(user);
  await signIn(page, user, "/what-if");
  const body = {
    opportunity_name: "What-if deal",
    arr_amount: 12000,
    deal_type: "new_business",
    close_date: await page.getByLabel("Close date").inputValue(),
    currency: "USD",
    owner_id: user.id,
  };
  const { status, body: preview } = await api<any>("POST", "/commissions/preview", body);
  expect(status).toBe(200);
  const line = preview.lines.find((l: any) => l.kind === "plan");
  expect(line.explanation.cap.applied).toBe(true);
  expect(line.explanation.summary).toContain("capped at");

  await page.getByRole("textbox", { name: "ARR amount" }).fill("12000");
  await page.getByRole("button", { name: "Preview commission" }).click();
  const headline = page.getByTestId("cap-headline");
  await expect(headline).toHaveCount(1);
  await expect(headline).toContainText(
    `Cap reached for ${line.period}: You earn ${line.amount === 0 ? "" : "only "}${money(line.amount)} on this deal`,
  );
  await expect(headline).toContainText(
    `The plan pays at most ${money(Number(line.explanation.cap.limit))} a period, and ${money(Number(line.explanation.cap.before))} of it was earned before this deal`,
  );
  await expect(page.getByTestId("preview-total")).toHaveText(money(preview.total_commission));
  expect(problems).toEqual([]);
});
