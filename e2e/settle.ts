import type { Page } from "@playwright/test";
import { expect } from "./fixtures.js";

/**
 * Waits until the page shows its data: no request in flight and nothing marked busy (LoadingState,
 * PageLoader). Pages that set the "cts:rendered" mark have set it by then; the others are judged as drawn.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(page.locator("#root")).not.toBeEmpty();
}
