import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// `npm run lint` checks web/src against web/.dependency-cruiser.cjs. These tests run the same rules over
// test/console/fixtures/web-deps, a miniature console whose every file breaks one of them, and hold the
// report to exactly the violations written there: a rule that stopped firing fails here.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FIXTURE = "test/console/fixtures/web-deps";
const CONFIG = "web/.dependency-cruiser.cjs";
const depcruise = `${ROOT}node_modules/dependency-cruiser/bin/dependency-cruise.mjs`;

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: { name: string }[];
}

async function cruise(root: string): Promise<Violation[]> {
  const run = await promisify(execFile)(
    process.execPath,
    [depcruise, root, "--config", CONFIG, "--output-type", "json"],
    { cwd: ROOT, env: { ...process.env, CTS_WEB_ROOT: root }, maxBuffer: 64 * 1024 * 1024 },
  ).catch((failed: { stdout?: string }) => ({ stdout: failed.stdout ?? "" }));
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

const short = (path: string) => path.replace(`${FIXTURE}/`, "");

describe("web/.dependency-cruiser.cjs: each rule fails on an import that breaks it", () => {
  it("the fixture's violations are exactly the ones its files were written to make", async () => {
    const found = (await cruise(FIXTURE)).map((v) => `${v.rule.name}: ${short(v.from)} → ${short(v.to)}`).sort();
    expect(found).toEqual(
      [
        "web-api-client-outside-data: pages/home/HomePage.js → api/client.js",
        "web-api-client-outside-data: pages/home/HomePage.js → node_modules/openapi-fetch/dist/index.mjs",
        "web-api-imports-outside: api/client.js → data/keys.js",
        "web-data-imports-upward: data/users/queries.js → ui/Table.js",
        "web-data-resource-imports-another: data/deals/queries.js → data/users/queries.js",
        "web-lib-imports-upward: lib/format.js → data/keys.js",
        "web-no-circular: pages/deals/DealPage.js → pages/home/HomePage.js",
        "web-no-circular: pages/home/HomePage.js → routes.js",
        "web-not-to-unresolvable: pages/home/HomePage.js → ./missing.js",
        "web-page-imports-page: pages/deals/DealPage.js → pages/home/HomePage.js",
        "web-page-imports-page: pages/home/HomePage.js → pages/deals/DealPage.js",
        "web-page-imports-root: pages/home/HomePage.js → routes.js",
        "web-ui-imports-pages: ui/Table.js → pages/home/HomePage.js",
      ].sort(),
    );
  });

  it("every rule of the config is broken by the fixture at least once", async () => {
    const { forbidden } = createRequire(import.meta.url)(`${ROOT}${CONFIG}`) as { forbidden: { name: string }[] };
    const broken = new Set((await cruise(FIXTURE)).map((v) => v.rule.name));
    expect(forbidden.map((rule) => rule.name).filter((name) => !broken.has(name))).toEqual([]);
  });

  it("the console itself keeps every rule", async () => {
    expect(await cruise("web/src")).toEqual([]);
  });
});
