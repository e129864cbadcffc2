import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { type SeededUser, state } from "./api.js";
import { apiAs, expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";
import { approvedDeal, ownPlan, ownRep } from "./workbench-data.js";

type Who = keyof ReturnType<typeof state>["users"] | null;

/** An open dispute of the spec's own, with the queue's lines and resolve form opened: every part of the page is checked. */
async function disputeToResolve(): Promise<void> {
  const rep = await ownRep("Axel Accessible");
  await ownPlan("Accessibility plan", [rep]);
  const deal = await approvedDeal(rep, "Accessible Ltd upsell", 9100);
  const answer = await (await apiAs(rep))("POST", `/deals/${deal.id}/disputes`, {
    reason: "other",
    expected_amount: 1000,
  });
  expect(answer.status).toBe(201);
}

async function openResolveForm(page: Page): Promise<void> {
  const card = page.getByTestId("queue-dispute").first();
  await card.getByRole("button", { name: /^Show lines/ }).click();
  await card.getByRole("button", { name: "Resolve" }).click();
  await card.getByRole("radio", { name: "Partially approved" }).check();
}

/** Every console page, opened by someone allowed to see it; null = signed out. */
const PAGES: {
  name: string;
  who: Who;
  path: () => string;
  /** Makes the data the page needs (through the API), before it opens. */
  before?: () => Promise<void>;
  /** Opens what the page hides at first, so axe sees it. */
  onPage?: (page: Page) => Promise<void>;
}[] = [
  { name: "sign-in", who: null, path: () => "/sign-in" },
  { name: "invite", who: null, path: () => "/invite#inv_dummy-token-for-the-accessibility-check" },
  { name: "home", who: "rita", path: () => "/" },
  { name: "deal", who: "rita", path: () => `/deals/${state().deals.ritaApproved}` },
  { name: "statement", who: "rita", path: () => `/statements/${state().period}` },
  { name: "what-if", who: "rita", path: () => "/what-if" },
  { name: "disputes", who: "rita", path: () => "/disputes" },
  { name: "team", who: "director", path: () => "/team" },
  { name: "account", who: "rita", path: () => "/account" },
  { name: "person", who: "director", path: () => `/people/${state().users.rita.id}` },
  { name: "plans", who: "admin", path: () => "/plans" },
  { name: "plan", who: "admin", path: () => `/plans/${state().planId}` },
  { name: "plan (finance)", who: "finance", path: () => `/plans/${state().planId}` },
  { name: "people", who: "admin", path: () => "/people" },
  { name: "spiffs", who: "admin", path: () => "/spiffs" },
  { name: "audit", who: "admin", path: () => "/audit" },
  { name: "request-log", who: "admin", path: () => "/request-log" },
  { name: "jobs", who: "admin", path: () => "/jobs" },
  {
    name: "dispute-queue",
    who: "admin",
    path: () => "/dispute-queue",
    before: disputeToResolve,
    onPage: openResolveForm,
  },
  { name: "payouts", who: "finance", path: () => "/payouts" },
  { name: "not-found", who: "rita", path: () => `/deals/${state().deals.paulaApproved}` },
];

const WIDTHS = [1280, 360];

/** axe's serious and critical findings on the page as it is now, one line each: id, impact, targets. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(" ")} — ${n.failureSummary ?? v.help}`));
}

for (const width of WIDTHS) {
  for (const target of PAGES) {
    test(`${target.name} at ${width} px has no serious or critical accessibility violation`, async ({
      page,
      problems,
    }) => {
      await target.before?.();
      await page.setViewportSize({ width, height: 800 });
      const who: SeededUser | undefined = target.who ? state().users[target.who] : undefined;
      if (who) await signIn(page, who, target.path());
      else await page.goto(target.path());
      await settled(page);
      await target.onPage?.(page);
      expect(await seriousViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    });
  }
}
