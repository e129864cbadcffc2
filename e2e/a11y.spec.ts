import { seriousViolations } from "./axe.js";
import { openPage, PAGES } from "./console-pages.js";
import { expect, test } from "./fixtures.js";

// 390 px: a phone (the narrow width); 360 px: the narrowest common one.
const WIDTHS = [1280, 390, 360];

for (const width of WIDTHS) {
  for (const target of PAGES) {
    test(`${target.name} at ${width} px has no serious or critical accessibility violation`, async ({
      page,
      problems,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      await openPage(page, target);
      expect(await seriousViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    });
  }
}
