import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness.js";

const ROOT = resolve(import.meta.dirname, "../..");

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe("#13 Done when: the served OpenAPI document", () => {
  it("lints with 0 errors under Redocly's recommended ruleset", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" });
    const dir = mkdtempSync(join(tmpdir(), "cts-redocly-"));
    try {
      writeFileSync(join(dir, "openapi.json"), res.body);
      writeFileSync(join(dir, "redocly.yaml"), "extends:\n  - recommended\n");
      const { stdout } = await promisify(execFile)(
        join(ROOT, "node_modules/.bin/redocly"),
        ["lint", "openapi.json", "--format=json"],
        { cwd: dir, env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } },
      ).catch((err) => err as { stdout: string });
      const report = JSON.parse(stdout) as {
        totals: { errors: number };
        problems: { severity: string; message: string }[];
      };
      expect(report.problems.filter((p) => p.severity === "error").map((p) => p.message)).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
