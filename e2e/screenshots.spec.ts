import { state } from "./api.js";
import { expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";

// The README's pictures of the console, made by the e2e run at 1280×800 once each page shows its data.
const SHOTS = [
  { file: "console-home.png", who: "rita", path: () => "/" },
  { file: "console-deal.png", who: "rita", path: () => `/deals/${state().deals.ritaApproved}` },
  { file: "console-statement.png", who: "rita", path: () => `/statements/${state().period}` },
  { file: "console-team.png", who: "director", path: () => "/team" },
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
