import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// `npm run lint` checks src/ against .dependency-cruiser.cjs and scripts/check-sql.mjs. These tests run
// the same rules over test/lint/fixtures/src-deps, a miniature src/ whose files each break a rule, and hold
// the reports to exactly the violations written there: a rule that stopped firing fails here.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FIXTURE = "test/lint/fixtures/src-deps";
const CONFIG = ".dependency-cruiser.cjs";
const depcruise = `${ROOT}node_modules/dependency-cruiser/bin/dependency-cruise.mjs`;

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

async function cruise(root: string): Promise<Violation[]> {
  const run = await promisify(execFile)(
    process.execPath,
    [depcruise, root, "--config", CONFIG, "--output-type", "json"],
    { cwd: ROOT, env: { ...process.env, CTS_SRC_ROOT: root }, maxBuffer: 64 * 1024 * 1024 },
  ).catch((failed: { stdout?: string }) => ({ stdout: failed.stdout ?? "" }));
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

async function checkSql(root: string): Promise<string[]> {
  const run = await promisify(execFile)(process.execPath, ["scripts/check-sql.mjs", root], { cwd: ROOT }).catch(
    (failed: { stdout?: string }) => ({ stdout: failed.stdout ?? "" }),
  );
  return run.stdout.split("\n").filter(Boolean);
}

const short = (path: string) => path.replace(`${FIXTURE}/`, "").replace(/^node_modules\/kysely\/.*/, "kysely");

describe(".dependency-cruiser.cjs: each rule of src/ fails on an import that breaks it", () => {
  it("the fixture's violations are exactly the ones its files were written to make", async () => {
    const found = (await cruise(FIXTURE))
      .filter((v) => v.rule.name !== "no-circular")
      .map((v) => `${v.rule.name}: ${short(v.from)} → ${short(v.to)}`)
      .sort();
    expect(found).toEqual(
      [
        "commissions-surface-internal-import: commissions/impact/plan-change.ts → commissions/recalc/plan.ts",
        "engine-imports-outside: commissions/engine/bucket.ts → commissions/lines/index.ts",
        "feature-internal-import: app/build.ts → deals/repository.ts",
        "floor-1-imports-upward: config.ts → db/schema.ts",
        "floor-2-imports-upward: db/schema.ts → context.ts",
        "floor-3-imports-upward: context.ts → audit/record.ts",
        "floor-4-imports-upward: audit/record.ts → users/index.ts",
        "floor-5-imports-upward: users/index.ts → commissions/index.ts",
        "floor-6-imports-upward: commissions/index.ts → comp-plans/index.ts",
        "floor-7-imports-upward: comp-plans/index.ts → deals/index.ts",
        "floor-8-imports-upward: deals/index.ts → mcp/tools.ts",
        "floor-9-imports-upward: mcp/tools.ts → app/build.ts",
        "index-exports-repository: commissions/lines/index.ts → commissions/lines/deal-lines-repository.ts",
        "index-exports-repository: users/index.ts → users/credentials-repository.ts",
        "not-to-unresolvable: deals/lock.ts → ./missing.js",
        "reexports-repository: commissions/lines/index.ts → commissions/lines/deal-lines-repository.ts",
        "reexports-repository: jobs/queue.ts → jobs/repository.ts",
        "reexports-repository: users/index.ts → users/credentials-repository.ts",
        "sql-outside-repository: comp-plans/impact.ts → db/sql.ts",
        "sql-outside-repository: deals/approve.ts → kysely",
        "testing-surface-in-src: commissions/routes.ts → commissions/testing.ts",
      ].sort(),
    );
    const cycles = (await cruise(FIXTURE)).filter((v) => v.rule.name === "no-circular").map((v) => short(v.from));
    expect(cycles).toEqual(["deals/lock.ts"]);
  });

  it("every rule of the config is broken by the fixture at least once", async () => {
    const { forbidden } = createRequire(import.meta.url)(`${ROOT}${CONFIG}`) as { forbidden: { name: string }[] };
    const broken = new Set((await cruise(FIXTURE)).map((v) => v.rule.name));
    expect(forbidden.map((rule) => rule.name).filter((name) => !broken.has(name))).toEqual([]);
  });

  it("src/ itself keeps every rule", async () => {
    expect(await cruise("src")).toEqual([]);
  });
});

describe("scripts/check-sql.mjs: a query built outside a repository, a repository re-exported", () => {
  it("finds exactly the fixture's", async () => {
    expect((await checkSql(FIXTURE)).map((line) => line.replace(/ \(.*\)$/, ""))).toEqual(
      [
        "commissions/lines/index.ts: re-exports lineCount from ./deal-lines-repository.js",
        "deals/approve.ts: builds SQL outside a repository",
        "deals/list.ts: builds SQL outside a repository",
        "jobs/queue.ts: re-exports toJob from ./repository.js",
        "users/index.ts: re-exports credentialsOf from ./credentials-repository.js",
      ].sort(),
    );
  });

  it("src/ builds SQL only in repositories and db/", async () => {
    expect(await checkSql("src")).toEqual([]);
  });

  it("no file of src/ is excused from the rule: the list of files not yet repositories is empty", () => {
    const { NOT_YET_REPOSITORIES } = createRequire(import.meta.url)(`${ROOT}scripts/sql-files.cjs`) as {
      NOT_YET_REPOSITORIES: string[];
    };
    expect(NOT_YET_REPOSITORIES).toEqual([]);
  });
});

describe("tests reach commissions through its surfaces", () => {
  it("every test import of src/commissions/ is its index.ts, a sub-surface's index.ts or testing.ts", () => {
    const walk = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory()
          ? e.name === "fixtures"
            ? []
            : walk(`${dir}/${e.name}`)
          : /\.tsx?$/.test(e.name)
            ? [`${dir}/${e.name}`]
            : [],
      );
    const inside = walk("test").flatMap((file) =>
      [...readFileSync(join(ROOT, file), "utf8").matchAll(/from "((?:\.\.\/)+src\/commissions\/[^"]+)"/g)]
        .map((m) => m[1]!.replace(/^(\.\.\/)+/, ""))
        .filter((path) => !/^src\/commissions\/((engine|recalc|lines|impact)\/)?(index|testing)\.js$/.test(path))
        .map((path) => `${file} → ${path}`),
    );
    expect(inside).toEqual([]);
  });
});
