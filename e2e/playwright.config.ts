import { defineConfig } from "@playwright/test";

// One port per run, fixed before the workers start (they inherit it).
process.env.CTS_E2E_URL ??= `http://127.0.0.1:${41000 + (process.pid % 2000)}`;

/**
 * The console's end-to-end suite: Debian's Chromium (never a downloaded browser) against a real
 * `cts serve` on a fresh embedded data dir, seeded through the API by global-setup.ts.
 */
export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  globalSetup: "./global-setup.ts",
  // One server, one database: files run one after another, each test in a fresh browser context.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  outputDir: "../.e2e-results",
  use: {
    baseURL: process.env.CTS_E2E_URL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    // No dialog fade-ins (the theme respects reduced motion): axe measures colours as drawn, never mid-fade.
    contextOptions: { reducedMotion: "reduce" },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      // Without these, Chromium reaches for Google's hosts at start, which this closed network refuses.
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
