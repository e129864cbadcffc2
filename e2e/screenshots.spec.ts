import { state } from "./api.js";
import { expect, signIn, test } from "./fixtures.js";
import { settled } from "./settle.js";

// The README's pictures of the console, made by the e2e run at 1280×800 once each page shows its data.
const SHOTS = [
  { file: "console-home.png", who: "rita", path: () => "/" },
  { file: "console-deal.png", who: "rita", path: () => `/deals/${state().deals.ritaApproved}` },
  { file: "console-statement.png", who: "rita", path: () => `/statements/${state().period}` },
  { file: "console-team.png", who: "director", path: () => "/team" },
  { file: "console-approvals.png", who: "admin", path: () => "/approvals" },
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
