import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { seriousViolations } from "./axe.js";
import { expect, signOut, test } from "./fixtures.js";
import { waitOf } from "./waits.js";

// Issue #28, the first run as a new user meets it: `npm start` on an empty data dir, the start banner's
// command run as printed, its invitation link opened, a password chosen, and the console's admin home.
// Its own `cts serve` (not the suite's seeded one): a data dir of its own, where no admin exists yet.

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const EMAIL = "first.admin@example.test";
const PASSWORD = "the first admin plants a quiet orchard";
const run = promisify(execFile);

interface Server {
  origin: string;
  stderr: () => string;
  /** Its log (stdout): one JSON line a request, with its status. */
  log: () => string;
  /** SIGTERM, then every byte it wrote: resolves once its output streams closed. */
  stop: () => Promise<void>;
}

const started: ChildProcess[] = [];
// Made by the test, not at import: Playwright imports a spec in its runner too, where no hook runs.
let dataRoot: string | undefined;

/** Only what a person's shell would hold: no setting of the suite's server leaks in. */
function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, npm_config_update_notifier: "false", ...extra };
}

/** `npm start`'s command on a free port (CTS_PORT=0), ready once it logs "cts serving" with its origin. */
function serve(dataDir: string): Promise<Server> {
  const env = baseEnv({ CTS_DATA_DIR: dataDir, CTS_HOST: "127.0.0.1", CTS_PORT: "0", CTS_LOG_LEVEL: "info" });
  const child = spawn(process.execPath, ["dist/cli/main.js", "serve"], { cwd: ROOT, env });
  started.push(child);
  let out = "";
  let err = "";
  child.stderr!.on("data", (d) => (err += d));
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`cts serve did not start:\n${out}\n${err}`)), waitOf(60_000));
    void closed.then(() => reject(new Error(`cts serve exited (${child.exitCode}):\n${out}\n${err}`)));
    child.stdout!.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.includes('"cts serving"'));
      if (!line) return;
      clearTimeout(timer);
      const stop = async () => {
        child.kill("SIGTERM");
        await closed;
      };
      resolve({ origin: JSON.parse(line).origin, stderr: () => err, log: () => out, stop });
    });
  });
}

/** A command line's words as a POSIX shell splits them (plain and single-quoted words: what the banner writes). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

/**
 * The banner's command, run as a person would paste it (their email in place of `<email>`): leading
 * VAR=value words are its environment, `npm` runs as npm, `cts` as the built `cts` (bin/ → dist/cli/main.js).
 */
async function runAsPrinted(cwd: string, line: string, email: string): Promise<string> {
  const words = shellWords(line.replace("<email>", email));
  const assignments = words.filter((_, i) => words.slice(0, i + 1).every((w) => /^[A-Z_][A-Z0-9_]*=/.test(w)));
  const [program, ...args] = words.slice(assignments.length);
  const env = baseEnv(
    Object.fromEntries(assignments.map((a) => [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)])),
  );
  const [file, argv] =
    program === "npm" ? ["npm", args] : program === "cts" ? [process.execPath, ["dist/cli/main.js", ...args]] : [];
  if (!file) throw new Error(`the banner's command starts with neither npm nor cts: ${line}`);
  const { stdout } = await run(file, argv!, { cwd, env, timeout: waitOf(60_000) });
  return stdout;
}

test.afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  if (dataRoot) rmSync(dataRoot, { recursive: true, force: true });
});

test("first run: the start banner's command invites the first admin, whose link signs them in to the admin home; then the banner is gone", async ({
  page,
  problems,
}) => {
  // A new data dir, two starts, one argon2id hash: more than the default timeout on a busy machine.
  test.slow();
  dataRoot = mkdtempSync(join(tmpdir(), "cts-e2e-first-run-"));
  const dataDir = join(dataRoot, "data");
  const first = await serve(dataDir);

  // The banner (stderr): where the console is, and the command, from the directory it names. After
  // `npm install && npm start` no `cts` is on the PATH, so the npm script comes first; this data dir is
  // not ./data, so the command carries it.
  const banner = first.stderr();
  expect(banner).toContain("No one can sign in to the console yet.");
  expect(banner).toContain(`The console is at ${first.origin}/\n`);
  const [, cwd, command] = /\n {2}in (.+), run\n\n {4}(.+)\n/.exec(banner) ?? [];
  expect(cwd).toBe(ROOT);
  expect(command).toBe(`CTS_DATA_DIR=${dataDir} npm run cts -- users invite <email> --role admin`);
  expect(banner).toContain(
    `(or, where cts is installed as a command: CTS_DATA_DIR=${dataDir} cts users invite <email> --role admin)`,
  );

  // Before anyone is invited the console's sign-in page says the same.
  await page.goto(`${first.origin}/`);
  await expect(page).toHaveURL(/\/sign-in/);
  const help = page.getByTestId("first-admin-help");
  await expect(help).toContainText("No one can sign in yet");
  await expect(help).toContainText("npm run cts -- users invite you@example.com --role admin");
  expect(await seriousViolations(page)).toEqual([]);

  const printed = await runAsPrinted(cwd!, command!, EMAIL);
  const link = /^(http:\/\/\S+\/invite#\S+)$/m.exec(printed)?.[1];
  expect(link, printed).toBeDefined();
  expect(link!.startsWith(`${first.origin}/invite#`)).toBe(true);
  expect(printed).toContain(`Invited usr_`);
  expect(printed).toContain(`${EMAIL} (admin, new user)`);

  await page.goto(link!);
  await expect(page.getByRole("heading", { name: "Accept your invitation" })).toBeVisible();
  await page.getByRole("textbox", { name: "Password", exact: true }).fill(PASSWORD);
  await page.getByRole("textbox", { name: "Confirm password" }).fill(PASSWORD);
  await expect(page.getByRole("list", { name: "Password rules" }).getByRole("listitem").nth(3)).toContainText(
    "be hard to guess (strength 4 of 4, 3 needed) (met)",
  );
  // The answer first, its status and body in the message: a slow argon2id hash on a busy machine waits
  // here (a minute), a refusal says which, and only then is the page expected to have moved on.
  const accepted = page.waitForResponse(
    (r) => r.request().method() === "POST" && r.url() === `${first.origin}/api/v1/auth/invitations/accept`,
    { timeout: waitOf(60_000) },
  );
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  const answer = await accepted;
  expect(answer.status(), `${await answer.text()}\n${first.log()}`).toBe(200);

  // Signed in, at the admin's home: its setup checklist, nothing set up but the bootstrap key.
  await expect(page).toHaveURL(`${first.origin}/`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your tasks");
  const checklist = page.getByTestId("setup-checklist");
  await expect(checklist.getByRole("heading", { name: "Set up commission tracking" })).toBeVisible();
  await expect(checklist).toContainText("1 of 5 done.");
  await expect(checklist.getByTestId("setup-api-keys")).toHaveAttribute("data-done", "true");
  for (const step of ["plans", "people", "assignments", "deals"]) {
    await expect(checklist.getByTestId(`setup-${step}`)).toHaveAttribute("data-done", "false");
  }
  const session = await page.request.get(`${first.origin}/api/v1/auth/session`);
  expect(session.status()).toBe(200);
  const { user, csrf_token } = await session.json();
  expect({ email: user.email, role: user.role, active: user.active }).toEqual({
    email: EMAIL,
    role: "admin",
    active: true,
  });

  // Setting up: six plans, a rep on the oldest one. The checklist counts that assignment (it is not on
  // one of the five newest plans) and every step but deals is done.
  const write = async (path: string, body: unknown) => {
    const res = await page.request.post(`${first.origin}/api/v1${path}`, {
      headers: { "X-CSRF-Token": csrf_token, Origin: first.origin },
      data: body,
    });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()).id as string;
  };
  const planIds: string[] = [];
  for (let i = 1; i <= 6; i++) {
    planIds.push(
      await write("/comp-plans", {
        name: `Plan ${i}`,
        period: "quarter",
        effective_from: "2026-01-01",
        base_rate: 0.1,
      }),
    );
  }
  const rep = await write("/users", { name: "Rita Rep", email: "rita@example.test", role: "rep" });
  await write(`/comp-plans/${planIds[0]}/assignments`, { user_id: rep, effective_from: "2026-01-01" });
  await page.reload();
  const counts = { plans: "6", people: "1", assignments: "1", deals: "0", "api-keys": "1" };
  for (const [step, count] of Object.entries(counts)) {
    await expect(checklist.getByTestId(`setup-${step}`).getByTestId("count")).toHaveText(count);
  }
  await expect(checklist).toContainText("4 of 5 done.");
  // The README's picture of a new company's admin home (docs/), as the first admin sees it here.
  await page.screenshot({ path: new URL("../docs/console-admin-setup.png", import.meta.url).pathname });

  // Signed out, the sign-in page asks again and no longer says no one can sign in.
  const methods = page.waitForResponse(`${first.origin}/api/v1/auth/methods`);
  await signOut(page);
  expect((await (await methods).json()).needs_first_admin).toBe(false);
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await expect(help).toHaveCount(0);
  expect(problems).toEqual([]);
  await first.stop();

  // Started again on the same data dir, with an admin: no first-run banner.
  const second = await serve(dataDir);
  await second.stop();
  expect(second.stderr()).not.toContain("No one can sign in");
  expect(second.stderr()).not.toContain("users invite");
});
