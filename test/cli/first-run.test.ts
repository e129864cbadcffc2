import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { hasActiveAdmin } from "../../src/users/index.js";
import { createUser } from "../factories.js";
import { createTestApp } from "../harness.js";
import { ctsEnv, fromTemplate, type RunningServer, runCts, startServer } from "./spawn.js";

/** Issue #28 "First run": the start banner and `cts doctor` say how the first admin gets in. */

const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
const POSTGRES = !!process.env.TEST_DATABASE_URL;
// A data dir whose first start has not happened yet: migrated (the template), no key, no user. The
// fresh-cluster path of a first start is test/cli/embedded-server's and test/db/data-dir-modes'.
const dataDir = mkdtempSync(join(tmpdir(), "cts-first-run-"));
if (!POSTGRES) fromTemplate(dataDir);
const ORIGIN = "https://cts.example.test";
const env = ctsEnv({ CTS_DATA_DIR: dataDir, CTS_PUBLIC_URL: ORIGIN });
const running: RunningServer[] = [];
const COMMAND = "cts users invite <email> --role admin";
const NPM_COMMAND = "npm run cts -- users invite <email> --role admin";
const DOCTOR_ADVICE = `run: ${COMMAND} (in the project's directory: ${NPM_COMMAND})`;

afterAll(() => {
  for (const s of running) s.child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

async function stop(server: RunningServer) {
  server.child.kill("SIGTERM");
  expect(await server.exited, server.stdout() + server.stderr()).toBe(0);
}

const adminFinding = (stdout: string) =>
  (JSON.parse(stdout) as { ok: boolean; warn?: boolean; check: string; detail: string }[]).find(
    (f) => f.check === "admin",
  );

describe.skipIf(POSTGRES)("first run (embedded)", () => {
  // Two server starts, three doctor runs and an invitation: past the default 30 s on a busy machine.
  it("the banner names the console URL and the command; doctor warns (exit 0) until an admin exists", {
    timeout: 120_000,
  }, async () => {
    const first = await startServer(env);
    running.push(first);
    const banner = first.stderr();
    // Started in the project's directory (as `npm start` is): the npm script first, since no `cts` is on
    // the PATH there; the data dir is not ./data, so the command names it and works as printed.
    expect(banner).toContain(`  in ${ROOT}, run\n\n    CTS_DATA_DIR=${dataDir} ${NPM_COMMAND}\n\n`);
    expect(banner).toContain(`(or, where cts is installed as a command: CTS_DATA_DIR=${dataDir} ${COMMAND})\n`);
    expect(banner).toContain(`The console is at ${ORIGIN}/\n`);
    expect(first.stdout()).not.toContain(COMMAND);
    await stop(first);

    const json = runCts(["doctor", "--json"], env);
    expect(json.status).toBe(0);
    expect(adminFinding(json.stdout)).toEqual({
      ok: true,
      warn: true,
      check: "admin",
      detail: `no active admin user, so no one can sign in to the console yet; ${DOCTOR_ADVICE}`,
    });
    const text = runCts(["doctor"], env);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain(`WARN  admin       no active admin user`);

    const invited = runCts(["users", "invite", "first@example.test", "--role", "admin"], env);
    expect(invited.status, invited.stderr).toBe(0);
    expect(invited.stdout).toContain(`${ORIGIN}/invite#`);
    // An invited admin is an active user: the console's sign-up link is theirs, the warning goes.
    expect(adminFinding(runCts(["doctor", "--json"], env).stdout)).toEqual({
      ok: true,
      check: "admin",
      detail: "an active admin user exists",
    });
    const second = await startServer(env);
    running.push(second);
    expect(second.stderr()).not.toContain("users invite");
    await stop(second);
  });
});

describe("hasActiveAdmin (what the banner and doctor ask)", () => {
  it("is false without users, true with an active admin, false once they are deactivated", async () => {
    const t = await createTestApp();
    try {
      expect(await hasActiveAdmin(t.db.db)).toBe(false);
      await createUser(t, { role: "admin", active: false });
      await createUser(t, { role: "finance" });
      expect(await hasActiveAdmin(t.db.db)).toBe(false);
      await createUser(t, { role: "admin" });
      expect(await hasActiveAdmin(t.db.db)).toBe(true);
    } finally {
      await t.close();
    }
  });
});
