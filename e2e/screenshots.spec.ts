import { state } from "./api.js";
import { expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";

// The README's pictures of the console, made by the e2e run at 1280×800 once each page shows its data.
const SHOTS = [
  { file: "console-home.png", who: "rita", path: () => "/" },
  { file: "console-deal.png", who: "rita", path: () => `/deals/${state().deals.ritaApproved}` },
  { file: "console-statement.png", who: "rita", path: () => `/statements/${state().period}` },
  { file: "console-team.png", who: "director", path: () => "/team" },
  { file: "console-plans.png", who: "admin", path: () => "/plans" },
  { file: "console-plan.png", who: "admin", path: () => `/plans/${state().planId}` },
  { file: "console-people.png", who: "admin", path: () => "/people" },
  { file: "console-spiffs.png", who: "admin", path: () => "/spiffs" },
  { file: "console-audit.png", who: "admin", path: () => "/audit" },
  { file: "console-request-log.png", who: "admin", path: () => "/request-log" },
  { file: "console-jobs.png", who: "admin", path: () => "/jobs" },
] as const;

for (const shot of SHOTS) {
  test(`screenshot ${shot.file}`, async ({ page, problems }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, state().users[shot.who], shot.path());
    await settled(page);
    await page.screenshot({ path: new URL(`../docs/${shot.file}`, import.meta.url).pathname });
    expect(problems).toEqual([]);
  });
}

// The impact of a change to the seed's plan before it is saved: previewing writes nothing (API.md §12).
test("screenshot console-plan-impact.png", async ({ page, problems }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, state().users.admin, `/plans/${state().planId}`);
  await settled(page);
  await page.getByRole("button", { name: "Edit terms" }).click();
  await page.getByRole("textbox", { name: "Tier 1 rate" }).fill("0.09");
  await page.getByRole("button", { name: "Preview impact" }).click();
  await settled(page);
  // The impact at the top of the picture, under the frame's header.
  await page
    .getByRole("heading", { name: "Impact of this change" })
    .evaluate((heading) => heading.ownerDocument.defaultView?.scrollBy(0, heading.getBoundingClientRect().top - 72));
  await page.mouse.move(0, 0);
  await page.screenshot({ path: new URL("../docs/console-plan-impact.png", import.meta.url).pathname });
  expect(problems).toEqual([]);
});
