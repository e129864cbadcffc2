import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ctsEnv, runCts } from "./spawn.js";

const dataDir = mkdtempSync(join(tmpdir(), "cts-doctor-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("cts doctor", () => {
  it("reports a broken DATABASE_URL and a missing TLS file in plain words, exit 1", () => {
    const r = runCts(
      ["doctor"],
      ctsEnv({
        CTS_DATA_DIR: dataDir,
        DATABASE_URL: "postgres://postgres:hunter2@127.0.0.1:1/nowhere",
        CTS_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"),
        CTS_TLS_CERT: join(dataDir, "missing-cert.pem"),
        CTS_TLS_KEY: join(dataDir, "missing-key.pem"),
      }),
    );
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      `FAIL  config      CTS_TLS_CERT points to ${join(dataDir, "missing-cert.pem")}, which does not exist`,
    );
    expect(r.stdout).toMatch(
      /FAIL {2}database {4}cannot reach postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/nowhere: connect ECONNREFUSED/,
    );
    expect(r.stdout).not.toContain("hunter2");
  });

  it("says all is well for a fresh embedded setup, exit 0", () => {
    const r = runCts(["doctor", "--json"], ctsEnv({ CTS_DATA_DIR: dataDir }));
    expect(r.status).toBe(0);
    const findings = JSON.parse(r.stdout) as { ok: boolean; check: string }[];
    expect(findings.map((f) => [f.check, f.ok])).toEqual([
      ["config", true],
      ["database", true],
      ["redis", true],
      ["tls", true],
    ]);
  });
});
