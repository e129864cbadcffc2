import { seriousViolations } from "./axe.js";
import { openPage, PAGES } from "./console-pages.js";
import { expect, test } from "./fixtures.js";

// Pages are independent: the workers share the list (each against its own server).
test.describe.configure({ mode: "parallel" });

// 390 px: a phone (the narrow width); 360 px: the narrowest common one. One test per page
// opens it afresh at each width in one session: signing in and making its data once, not per width.
const WIDTHS = [1280, 390, 360] as const;

for (const target of PAGES) {
  test(`${target.name} has no serious or critical accessibility violation at ${WIDTHS.join(", ")} px`, async ({
    page,
    problems,
  }) => {
    const found: Record<number, string[]> = {};
    let reopen: (() => Promise<void>) | undefined;
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      if (reopen) await reopen();
      else reopen = await openPage(page, target);
      found[width] = await seriousViolations(page);
    }
    expect(found).toEqual(Object.fromEntries(WIDTHS.map((w) => [w, []])));
    expect(problems).toEqual([]);
  });
}
