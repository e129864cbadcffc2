import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { type SeededUser, state } from "./api.js";
import { expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";

type Who = keyof ReturnType<typeof state>["users"] | null;

/** Every console page, opened by someone allowed to see it; null = signed out. */
const PAGES: { name: string; who: Who; path: () => string }[] = [
  { name: "sign-in", who: null, path: () => "/sign-in" },
  { name: "invite", who: null, path: () => "/invite#inv_dummy-token-for-the-accessibility-check" },
  { name: "home", who: "rita", path: () => "/" },
  { name: "deal", who: "rita", path: () => `/deals/${state().deals.ritaApproved}` },
  { name: "statement", who: "rita", path: () => `/statements/${state().period}` },
  { name: "what-if", who: "rita", path: () => "/what-if" },
  { name: "disputes", who: "rita", path: () => "/disputes" },
  { name: "team", who: "director", path: () => "/team" },
  { name: "account", who: "rita", path: () => "/account" },
  { name: "approvals", who: "admin", path: () => "/approvals" },
  { name: "person", who: "director", path: () => `/people/${state().users.rita.id}` },
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
      await page.setViewportSize({ width, height: 800 });
      const who: SeededUser | undefined = target.who ? state().users[target.who] : undefined;
      if (who) await signIn(page, who, target.path());
      else await page.goto(target.path());
      await settled(page);
      expect(await seriousViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    });
  }
}
