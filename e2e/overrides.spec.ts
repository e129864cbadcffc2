import type { Page } from "@playwright/test";
import { asAdmin, type SeededUser, state } from "./api.js";
import { seriousViolations } from "./axe.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";
import { ownPlan, ownRep } from "./workbench-data.js";

// Manager overrides in the console (API.md §16): a manager's "Overrides by report" on their home, and
// the effect of a manager change shown before it is saved. The spec's own people, plans and deals
// ("… Overseer", "… Report"), outside the seeded tree, so no seeded page changes; every number on the
// pages is compared with what the API answers.

test.use({ locale: "en-US" });
const money = (amount: number, currency = "USD") =>
  new Intl.NumberFormat("en-US", { style: "currency", currency, minimumFractionDigits: 2 }).format(amount);
const plain = (amount: number) =>
  new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Math.abs(amount));
const signed = (amount: number) => (amount > 0 ? `+${plain(amount)}` : amount < 0 ? `−${plain(amount)}` : plain(0));
const cents = (amount: number) => Math.round(amount * 100);

function quarterOf(d: Date): { year: number; q: number } {
  return { year: d.getUTCFullYear(), q: Math.floor(d.getUTCMonth() / 3) + 1 };
}

/** The first day of the quarter `back` quarters before today's, plus `day` days ("YYYY-MM-DD"). */
function dayInQuarter(back: number, day: number): string {
  const { year, q } = quarterOf(new Date());
  const index = year * 4 + (q - 1) - back;
  return new Date(Date.UTC(Math.floor(index / 4), (index % 4) * 3, 1 + day)).toISOString().slice(0, 10);
}

const { year, q } = quarterOf(new Date());
const PERIOD = `${year}-Q${q}`;
const SINCE = dayInQuarter(4, 0);
/** The day the moved report starts under the other manager: the first of their pending deals' close date. */
const MOVED_FROM = dayInQuarter(1, 10);

interface Org {
  olive: SeededUser;
  otto: SeededUser;
  rosa: SeededUser;
  remy: SeededUser;
  sid: SeededUser;
  pending: string[];
}

let org: Promise<Org> | undefined;

/**
 * Olive Overseer (override plan: 3 % on direct reports, 1 % two levels below) over Rosa and Remy, Sid
 * under Rosa; Otto Overseer (5 % on direct reports) over nobody yet. This quarter's deals are approved
 * (locked: no reporting change moves them); last quarter's two deals of Remy's stay pending.
 */
function overrideOrg(): Promise<Org> {
  org ??= (async () => {
    const olive = await ownRep("Olive Overseer");
    const otto = await ownRep("Otto Overseer");
    for (const m of [olive, otto]) await asAdmin("PATCH", `/users/${m.id}`, { role: "manager" });
    const overridePlan = async (name: string, levels: { depth: number; rate: number }[], manager: SeededUser) => {
      const plan = await asAdmin("POST", "/comp-plans", {
        name,
        kind: "override",
        period: "quarter",
        currency: "USD",
        override_levels: levels,
        effective_from: SINCE,
      });
      await asAdmin("POST", `/comp-plans/${plan.id}/assignments`, { user_id: manager.id, effective_from: SINCE });
    };
    await overridePlan(
      "Olive's overrides",
      [
        { depth: 1, rate: 0.03 },
        { depth: 2, rate: 0.01 },
      ],
      olive,
    );
    await overridePlan("Otto's overrides", [{ depth: 1, rate: 0.05 }], otto);
    const report = async (name: string, manager: SeededUser) => {
      const rep = await ownRep(name);
      await asAdmin("PATCH", `/users/${rep.id}`, { manager_id: manager.id, manager_effective_from: SINCE });
      return rep;
    };
    const rosa = await report("Rosa Report", olive);
    const remy = await report("Remy Report", olive);
    const sid = await report("Sid Report", rosa);
    await ownPlan("Override e2e reps", [rosa, remy, sid]);

    const deal = (name: string, owner: SeededUser, arr: number, close: string, splits?: [SeededUser, number][]) =>
      asAdmin("POST", "/deals", {
        opportunity_name: name,
        arr_amount: arr,
        close_date: close,
        owner_id: owner.id,
        ...(splits ? { splits: splits.map(([u, percent]) => ({ user_id: u.id, percent })) } : {}),
      });
    const thisQuarter = dayInQuarter(0, 0);
    for (const d of [
      await deal("Overseen Acme", rosa, 40000, thisQuarter),
      await deal("Overseen Globex 60/40", rosa, 10000.55, thisQuarter, [
        [rosa, 60],
        [remy, 40],
      ]),
      await deal("Overseen Initech", remy, 12345.67, thisQuarter),
      await deal("Overseen Hooli (two levels down)", sid, 7777.77, thisQuarter),
    ]) {
      await asAdmin("POST", `/deals/${d.id}/approve`);
    }
    const pending = [
      await deal("Moving Umbrella", remy, 20000, MOVED_FROM),
      await deal("Moving Stark 70/30", rosa, 15000.01, dayInQuarter(1, 12), [
        [rosa, 70],
        [remy, 30],
      ]),
    ];
    return { olive, otto, rosa, remy, sid, pending: pending.map((d) => d.id) };
  })();
  return org;
}

// ---- The split the page makes, computed here from the API's lines ----

/** An exact decimal (or "n/d") as [numerator, denominator]. */
function ratio(text: string): [bigint, bigint] {
  const [top = "0", bottom] = text.split("/");
  const negative = top.startsWith("-");
  const [whole = "0", fraction = ""] = top.replace(/^[+-]/, "").split(".");
  const n = BigInt(whole + fraction) * (negative ? -1n : 1n);
  const d = 10n ** BigInt(fraction.length) * BigInt(bottom ?? "1");
  return [n, d];
}

/** `c` cents in proportion to `weights`, largest remainders taking the cents left over (earlier on a tie). */
function split(c: number, weights: string[]): number[] {
  const rs = weights.map(ratio);
  const common = rs.reduce((acc, [, d]) => acc * d, 1n);
  let w = rs.map(([n, d]) => (n * common) / d);
  let sum = w.reduce((a, b) => a + b, 0n);
  if (sum === 0n) {
    w = w.map(() => 1n);
    sum = BigInt(w.length);
  }
  const total = BigInt(c);
  const parts = w.map((x) => (total * x) / sum);
  let left = Number(total - parts.reduce((a, b) => a + b, 0n));
  const order = w
    .map((x, i) => ({ i, r: (total * x) % sum }))
    .sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of order) if (left-- > 0) parts[i]! += 1n;
  return parts.map(Number);
}

interface Expected {
  user_id: string;
  depth: number;
  deals: Set<string>;
  credit: [bigint, bigint];
  cents: number;
}

/** Per credited person and depth: deals, Σ credit, and their cents of the override lines. */
function byReport(lines: any[]): Expected[] {
  const rows = new Map<string, Expected>();
  for (const line of lines.filter((l) => l.kind === "override")) {
    const levels = line.explanation.levels as any[];
    const perLevel = split(
      cents(line.amount),
      levels.map((l) => l.commission),
    );
    levels.forEach((level, i) => {
      const perUser = split(
        perLevel[i]!,
        level.users.map((u: any) => u.credit),
      );
      level.users.forEach((u: any, j: number) => {
        const key = `${u.user_id}@${level.depth}`;
        const row = rows.get(key) ?? {
          user_id: u.user_id,
          depth: level.depth,
          deals: new Set(),
          credit: [0n, 1n],
          cents: 0,
        };
        row.deals.add(line.deal_id);
        const [n, d] = ratio(u.credit);
        row.credit = [row.credit[0] * d + n * row.credit[1], row.credit[1] * d];
        row.cents += perUser[j]!;
        rows.set(key, row);
      });
    });
  }
  return [...rows.values()];
}

const sameDecimal = (text: string, [n, d]: [bigint, bigint]) => {
  const [m, e] = ratio(text);
  return m * d === n * e;
};

test("a manager with an override plan sees their overrides by report, each row and the total as the API's lines add up", async ({
  page,
  problems,
}) => {
  const { olive, rosa, remy, sid } = await overrideOrg();
  const api = await apiAs(olive);
  const statement = (await api<any>("GET", `/users/${olive.id}/statement?period=${PERIOD}`)).body;
  const overrides = statement.lines.filter((l: any) => l.kind === "override");
  // Four deals this quarter, each with Olive's override line (Sid's two levels below her).
  expect(overrides).toHaveLength(4);
  const expected = byReport(statement.lines);
  expect(expected.map((r) => `${r.user_id}@${r.depth}`).sort()).toEqual(
    [`${rosa.id}@1`, `${remy.id}@1`, `${sid.id}@2`].sort(),
  );
  // The rows add up, to the cent, to the statement's override total as the API sums it.
  expect(expected.reduce((acc, r) => acc + r.cents, 0)).toBe(cents(statement.totals.override));

  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, olive, "/");
  await settled(page);
  const card = page.locator(`section[data-period="${PERIOD}"]`, {
    has: page.getByRole("heading", { name: `Overrides by report, ${PERIOD}` }),
  });
  const table = card.getByTestId("overrides-by-report");
  await expect(table.locator("tbody tr")).toHaveCount(expected.length);
  const names = new Map([rosa, remy, sid].map((u) => [u.id, u.name]));
  for (const r of expected) {
    const row = table.locator(`tbody tr[data-user-id="${r.user_id}"][data-depth="${r.depth}"]`);
    await expect(row.locator('[data-col="person"]')).toHaveText(names.get(r.user_id)!);
    await expect(row.locator('[data-col="depth"]')).toHaveText(String(r.depth));
    await expect(row.locator('[data-col="deals"]')).toHaveText(String(r.deals.size));
    expect(sameDecimal((await row.locator('[data-col="credit"]').getAttribute("data-value"))!, r.credit)).toBe(true);
    await expect(row.locator('[data-col="override"]')).toHaveText(money(r.cents / 100));
  }
  const total = table.getByTestId("overrides-total");
  await expect(total.locator('[data-col="override"]')).toHaveText(money(statement.totals.override));
  await expect(total.locator('[data-col="override"]')).toHaveAttribute("data-value", String(statement.totals.override));
  await expect(total.locator('[data-col="deals"]')).toHaveText(
    String(new Set(overrides.map((l: any) => l.deal_id)).size),
  );

  expect(await seriousViolations(page)).toEqual([]);
  // The README's picture: the card under the frame's header, the team's numbers above it.
  await card.evaluate((el) => el.ownerDocument.defaultView?.scrollBy(0, el.getBoundingClientRect().top - 240));
  await page.mouse.move(0, 0);
  await page.screenshot({ path: new URL("../docs/console-overrides.png", import.meta.url).pathname });
  expect(problems).toEqual([]);
});

/** The People page filtered to one exact email, and the Change manager dialog of its one row. */
async function openManagerDialog(page: Page, person: SeededUser) {
  await page.getByLabel("Email (exact)").fill(person.email);
  await page.getByRole("button", { name: "Search" }).click();
  const rows = page.getByRole("table", { name: "People" }).locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await rows
    .first()
    .getByRole("button", { name: `Actions for ${person.name}` })
    .click();
  await page.getByRole("menuitem", { name: "Change manager" }).click();
  return page.getByRole("dialog", { name: `Change ${person.name}'s manager` });
}

test("an admin moves a report to another manager from an earlier day: the dialog shows the override lines it moves before saving, as the API's impact says", async ({
  page,
  problems,
}) => {
  const { olive, otto, remy, pending } = await overrideOrg();
  const admin = await apiAs(state().users.admin);
  // Read as the admin person (their own rate limit): the setup spent much of the shared key's minute.
  const overrideLines = async (dealId: string) =>
    (await admin<any>("GET", `/commissions?deal_id=${dealId}&kind=override`)).body.data.map((l: any) => ({
      user_id: l.user_id,
      amount: l.amount,
    }));
  const before = await Promise.all(pending.map(overrideLines));
  for (const lines of before) expect(lines.map((l: any) => l.user_id)).toEqual([olive.id]);

  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, state().users.admin, "/people");
  await settled(page);
  const dialog = await openManagerDialog(page, remy);
  await dialog.getByRole("combobox", { name: "Manager" }).fill(otto.name);
  await dialog.getByRole("option", { name: `${otto.name} (Manager)` }).click();

  // A day before Remy's current line starts: the impact's 422, its message in the dialog.
  const tooEarly = new Date(Date.parse(SINCE) - 86_400_000).toISOString().slice(0, 10);
  await dialog.getByLabel("Effective from").fill(tooEarly);
  const refused = await admin<any>("POST", `/users/${remy.id}/reporting-lines/impact`, {
    manager_id: otto.id,
    manager_effective_from: tooEarly,
  });
  expect(refused.status).toBe(422);
  await expect(dialog.getByRole("alert")).toContainText(refused.body.error.message);

  await dialog.getByLabel("Effective from").fill(MOVED_FROM);
  const body = { manager_id: otto.id, manager_effective_from: MOVED_FROM };
  const answer = await admin<any>("POST", `/users/${remy.id}/reporting-lines/impact?per_page=10`, body);
  expect(answer.status).toBe(200);
  const impact = answer.body;
  const s = impact.summary;
  // Both pending deals: Olive's lines lose Remy's credit, Otto's gain it (new lines).
  expect(s.deals).toBe(2);
  expect(s.lines).toBe(4);

  const shown = dialog.getByTestId("move-impact");
  await expect(shown).toHaveAttribute("data-current", "true");
  const summary = dialog.getByTestId("move-impact-summary");
  await expect(summary).toHaveText(
    `This move changes ${s.lines} override lines across ${s.deals} deals: ${signed(s.pending_delta)}.`,
  );
  await expect(summary).toHaveAttribute("data-lines", String(s.lines));
  await expect(summary).toHaveAttribute("data-deals", String(s.deals));
  await expect(summary).toHaveAttribute("data-delta", String(s.pending_delta));
  const rows = dialog.getByTestId("move-impact-lines").locator("tbody tr");
  await expect(rows).toHaveCount(impact.lines.data.length);
  const names = new Map([olive, otto].map((u) => [u.id, u.name]));
  for (const [i, line] of impact.lines.data.entries()) {
    const row = rows.nth(i);
    await expect(row).toHaveAttribute("data-deal-id", line.deal_id);
    await expect(row.locator("td")).toHaveText([
      names.get(line.user_id)!,
      line.opportunity_name,
      `${plain(line.before)} → ${plain(line.after)}`,
    ]);
  }
  expect(await seriousViolations(page)).toEqual([]);
  // Nothing is written by the preview.
  expect(await Promise.all(pending.map(overrideLines))).toEqual(before);

  await dialog.getByRole("button", { name: "Change manager" }).click();
  await expect(dialog).toHaveCount(0);
  // Saved: each pending deal's override lines are what the impact said (Otto's new, Olive's changed or gone).
  for (const dealId of pending) {
    const want = impact.lines.data
      .filter((l: any) => l.deal_id === dealId && l.after !== 0)
      .map((l: any) => ({ user_id: l.user_id, amount: l.after }));
    const kept = (before[pending.indexOf(dealId)] as any[]).filter(
      (l) => !impact.lines.data.some((c: any) => c.deal_id === dealId && c.user_id === l.user_id),
    );
    const sort = (ls: any[]) => [...ls].sort((a, b) => (a.user_id < b.user_id ? -1 : 1));
    await expect.poll(async () => sort(await overrideLines(dealId))).toEqual(sort([...want, ...kept]));
  }
  const lines = (await admin<any>("GET", `/users/${remy.id}/reporting-lines`)).body.data;
  expect(lines.at(-1)).toEqual({ manager_id: otto.id, effective_from: MOVED_FROM, effective_to: null });
  const delta = impact.lines.data.reduce((acc: number, l: any) => acc + cents(l.delta), 0);
  expect(delta).toBe(cents(s.pending_delta));

  // The spec's pending deals leave no queue of other specs longer.
  for (const id of pending) expect((await admin("DELETE", `/deals/${id}`)).status).toBe(204);
  expect(problems).toEqual([]);
});
