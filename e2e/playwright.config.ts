import { defineConfig } from "@playwright/test";
import { waitOf } from "./waits.js";

// Workers: one server and one seeded database each (global-setup.ts). Their ports are fixed before the
// workers start (they inherit them); a worker finds its own by its parallel index.
const WORKERS = Number(process.env.CTS_E2E_WORKERS ?? 2);
const FIRST_PORT = 41000 + 2 * (process.pid % 1000);
process.env.CTS_E2E_URLS ??= Array.from({ length: WORKERS }, (_, i) => `http://127.0.0.1:${FIRST_PORT + i}`).join(",");

/**
 * The console's end-to-end suite: Debian's Chromium (never a downloaded browser) against a real
 * `cts serve` on a fresh embedded data dir, seeded through the API by global-setup.ts.
 */
export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  globalSetup: "./global-setup.ts",
  // A worker's files run one after another against its own server, each test in a fresh browser context.
  workers: WORKERS,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: waitOf(60_000),
  expect: { timeout: waitOf(10_000) },
  // The list as tests end; the JSON (every test's duration, .e2e-results/report.json) to find the slowest.
  reporter: [["list"], ["json", { outputFile: "../.e2e-results/report.json" }]],
  outputDir: "../.e2e-results",
  use: {
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
