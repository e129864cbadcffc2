import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, ctsEnv, fromTemplate, type RunningServer, runCts, startServer } from "./spawn.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const POSTGRES = !!process.env.TEST_DATABASE_URL;
const root = mkdtempSync(join(tmpdir(), "cts-owner-"));
const dataDir = join(root, "data");
if (!POSTGRES) fromTemplate(dataDir);
const env = ctsEnv({ CTS_DATA_DIR: dataDir, CTS_PORT: "3999" });
const running: RunningServer[] = [];
afterAll(() => {
  for (const s of running) s.child.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(POSTGRES)("#13.28 owner CLI", () => {
  it.each([
    ["keys", "list"],
    ["keys", "create", "--scope", "read", "--name", "x"],
    ["keys", "revoke", "key_1"],
    ["keys", "mcp-access", "key_1", "read"],
    ["seed", "--demo"],
  ])("`cts %s …` refuses a data dir with no database, creating nothing", (...args) => {
    const missing = join(root, "typo");
    const r = runCts(args, ctsEnv({ CTS_DATA_DIR: missing }));
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 1,
      stdout: "",
      stderr: `cts: no database in ${missing} (CTS_DATA_DIR); check the path, or run \`cts serve\` once to create one there\n`,
    });
    expect(existsSync(missing)).toBe(false);
  });

  it("seed --demo with CTS_ENV=live says so once, without a doubled prefix", () => {
    const r = runCts(
      ["seed", "--demo"],
      ctsEnv({
        CTS_DATA_DIR: join(root, "live"),
        CTS_ENV: "live",
        CTS_TRUST_PROXY: "1",
        CTS_PUBLIC_URL: "https://cts.example.com",
      }),
    );
    expect({ status: r.status, stderr: r.stderr }).toEqual({
      status: 1,
      stderr: "cts: seed --demo is refused with CTS_ENV=live\n",
    });
  });

  it("keys create --expires-at says what format it expects", { timeout: 120_000 }, () => {
    for (const bad of ["tomorrow", "2026-13-01T00:00:00Z", "2026-12-31", "1767225600"]) {
      const r = runCts(["keys", "create", "--scope", "read", "--name", "x", "--expires-at", bad], env);
      expect({ status: r.status, stderr: r.stderr }).toEqual({
        status: 2,
        stderr: `cts: --expires-at must be an RFC 3339 timestamp such as 2030-12-31T23:59:59Z, not "${bad}"\n`,
      });
    }
  });

  it("with a running server: keys list has a header row; doctor reports the server's port, migrations and clock", {
    timeout: 240_000,
  }, async () => {
    const server = await startServer(env);
    running.push(server);
    const list = runCts(["keys", "list"], env);
    expect(list.status).toBe(0);
    const [header, ...rows] = list.stdout.trimEnd().split("\n");
    expect(header!.split(/\s{2,}/)).toEqual(["ID", "PREFIX", "SCOPE", "MCP", "STATE", "NAME"]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.indexOf("bootstrap")).toBe(header!.indexOf("NAME"));
    expect(rows[0]!.indexOf("admin")).toBe(header!.indexOf("SCOPE"));

    const doctor = runCts(["doctor", "--json"], env);
    expect(doctor.stderr).toBe("");
    const findings = JSON.parse(doctor.stdout) as { ok: boolean; check: string; detail: string }[];
    expect(findings.map((f) => [f.check, f.ok])).toEqual([
      ["config", true],
      ["database", true],
      ["migrations", true],
      ["clock", true],
      ["admin", true],
      ["redis", true],
      ["tls", true],
    ]);
    expect(findings[0]!.detail).toBe(
      `environment demo; the running server (pid ${server.child.pid}) listens on 127.0.0.1:${server.port}`,
    );
    expect(findings[2]!.detail).toBe("all applied");
    expect(findings[3]!.detail).toMatch(/^within \d+ ms of the database$/);
    // The running server answers whether an active admin exists (no one invited one here: a warning).
    expect(findings[4]).toMatchObject({ check: "admin", warn: true });
    expect(findings[4]!.detail).toMatch(
      /^no active admin user, so no one can sign in to the console yet; run: cts users invite/,
    );
    expect(doctor.status).toBe(0);
  });

  it("doctor without a running server checks migrations and clock on the data dir itself", async () => {
    const server = running.at(-1)!;
    server.child.kill("SIGTERM");
    await server.exited.catch(() => {});
    const doctor = runCts(["doctor", "--json"], env);
    const findings = JSON.parse(doctor.stdout) as { ok: boolean; check: string; detail: string }[];
    expect(findings.map((f) => [f.check, f.ok, f.check === "clock" ? "" : f.detail])).toEqual([
      ["config", true, "environment demo, listening on 127.0.0.1:3999 when started"],
      ["database", true, `embedded, data dir ${dataDir} (not in use; opened on the next start)`],
      ["migrations", true, "all applied"],
      ["clock", true, ""],
      // #28: a warning (exit 0), not a failure: no one has been invited as admin in this data dir.
      [
        "admin",
        true,
        "no active admin user, so no one can sign in to the console yet; run: cts users invite <email> --role admin (in the project's directory: npm run cts -- users invite <email> --role admin)",
      ],
      ["redis", true, "not configured (rate limits kept in the database or memory)"],
      ["tls", true, "plain HTTP (fine for local use only)"],
    ]);
    expect(doctor.status).toBe(0);
  });

  it("seed --demo shows its progress on a terminal, then the result", { timeout: 600_000 }, () => {
    const command = `${JSON.stringify(process.execPath)} ${CLI.join(" ")} seed --demo`;
    const r = spawnSync("script", ["-qec", command, "/dev/null"], {
      cwd: ROOT,
      env,
      encoding: "utf8",
      timeout: 590_000,
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("\rSeeding demo data (9 people, 3 plans, a SPIFF, ~190 deals)… 0 s");
    expect(r.stdout).toContain("\r\x1b[2KDemo data ready: ");
    expect(r.stdout).toContain("Sign in as any of them with the one-time link `cts users invite EMAIL` prints:");
    expect(r.stdout).toContain("  Morgan Blake   manager  morgan@demo.example\r\n");
    expect(r.stdout).toContain("  Elena Novak    rep      elena@demo.example  (Enterprise yearly)\r\n");
  });
});
