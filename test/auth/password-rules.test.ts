import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.js";
import {
  checkPassword,
  commonPasswords,
  estimateStrength,
  passwordProblems,
  userInputs,
} from "../../src/passwords/index.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const EMAIL = "Dana.Lopez@Example.com";
const DANA = { email: EMAIL, name: "Dana Quixotic-Zylberstein" };
// Long enough to cut at any length; varied, so every cut scores at least 3 (no repeats, no sequences).
const VARIED =
  "Harbour-Lantern-Quietly-52;copper Meadow whistles 93 times, Orchard+Tundra/Falcon=41 & violet canyon echoes?" +
  " Granite.Plume-Sapphire_76 under Juniper skies; the Kestrel hums 18 bright notes, Marlin+Quartz/Ember=205, " +
  "zephyr ledger 39 Obsidian! mossy Beacon 64 drifts past +Walrus";
const SHORT = { param: "password", message: "must have at least 12 characters" };
const LONG = { param: "password", message: "must have at most 256 characters" };
const EMAILISH = { param: "password", message: "must not contain your email address or the part of it before the @" };
const COMMON = {
  param: "password",
  message: "is on the list of commonly used passwords; choose a less predictable one",
};

describe("#15 password rules (API.md §11)", () => {
  it.each([
    [11, [SHORT]],
    [12, []],
    [256, []],
    [257, [LONG]],
  ])("%i characters → %j", (length, problems) => {
    const password = VARIED.slice(0, length);
    expect(password).toHaveLength(length);
    expect(passwordProblems(password, DANA)).toEqual(problems);
  });

  it("counts characters as Unicode code points, not UTF-16 units", () => {
    // Each emoji is two UTF-16 units: 6 of them are 12 units but 6 characters.
    expect(passwordProblems("😀🎉🔑🌵🚲🧭", DANA)).toEqual([SHORT]);
    expect(passwordProblems("😀🎉🔑🌵🚲🧭😀🎉🔑🌵🚲🧭", DANA)).toEqual([]);
    expect(passwordProblems("ñandú-über-ßtraße", DANA)).toEqual([]);
    expect(passwordProblems("密码密码密码密码密码密", DANA)).toEqual([SHORT]); // 11 characters
  });

  it("refuses the email, ignoring case, and a password containing it or its local part", () => {
    expect(passwordProblems("dana.lopez@example.com", DANA)).toEqual([EMAILISH]);
    expect(passwordProblems("DANA.LOPEZ@EXAMPLE.COM", DANA)).toEqual([EMAILISH]);
    expect(passwordProblems("my Dana.Lopez@example.com!", DANA)).toEqual([EMAILISH]);
    expect(passwordProblems("dana.lopez-2026-rocks", DANA)).toEqual([EMAILISH]);
    // A local part of fewer than 4 characters is too short to count on its own.
    expect(passwordProblems("bob-likes-long-walks", { email: "bob@example.com" })).toEqual([]);
    expect(passwordProblems("x bob@example.com x", { email: "bob@example.com" })).toEqual([EMAILISH]);
  });

  it("refuses a listed common password, ignoring case", () => {
    expect(commonPasswords().has("qwerty123456")).toBe(true);
    expect(passwordProblems("qwerty123456", DANA)).toEqual([COMMON]);
    expect(passwordProblems("QWERTY123456", DANA)).toEqual([COMMON]);
    expect(passwordProblems("password", DANA)).toEqual([SHORT, COMMON]);
  });

  it("bundles a list of at least 10,000 common passwords", () => {
    expect(commonPasswords().size).toBeGreaterThanOrEqual(10_000);
    expect(commonPasswords().size).toBe(49_233);
    expect(commonPasswords().has("123456")).toBe(true);
  });

  it("checkPassword throws 422 validation_error naming the field, never the password", () => {
    const secret = "Dana.Lopez@example.com";
    let thrown: unknown;
    try {
      checkPassword(secret, DANA, "new_password");
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(AppError);
    const err = thrown as AppError;
    expect([err.status, err.code, err.details]).toEqual([
      422,
      "validation_error",
      [{ ...EMAILISH, param: "new_password" }],
    ]);
    expect(err.message).toBe(
      "Invalid password: new_password must not contain your email address or the part of it before the @",
    );
    expect(JSON.stringify({ message: err.message, details: err.details }).toLowerCase()).not.toContain(
      secret.toLowerCase(),
    );
    expect(() => checkPassword("a fine long passphrase", DANA)).not.toThrow();
  });
});

const guessable = (score: number, hint: string) => ({
  param: "password",
  message: `is too easy to guess (strength ${score} of 4, 3 needed): ${hint}`,
});
const REPEATED =
  'Repeated characters like "aaa" are easy to guess. Add more words that are less common. Avoid repeated words and characters.';
const LIKE_COMMON = "This is similar to a commonly used password. Add more words that are less common.";
const PERSONAL = "There should not be any personal or page related data. Add more words that are less common.";

describe("#26 a zxcvbn estimate of at least 3 of 4 (API.md §20 (c))", () => {
  it.each([
    ["aaaaaaaaaaaa", guessable(0, REPEATED)],
    [" ".repeat(12), guessable(0, REPEATED)],
    ["qwertyuiopasdfgh", guessable(1, LIKE_COMMON)],
    ["1234567890ab", guessable(1, LIKE_COMMON)],
  ])("%j → 422 detail with the estimator's hint", (password, problem) => {
    expect(passwordProblems(password, DANA)).toEqual([problem]);
    expect(passwordProblems(password, null)).toEqual([problem]);
  });

  it("passes a password the estimator scores 3 or 4", () => {
    for (const password of ["Harbour-Lantern-Quietly-52", "tidy-otter-ledger-42", "a fine long passphrase"]) {
      expect(estimateStrength(password, DANA).score, password).toBeGreaterThanOrEqual(3);
      expect(passwordProblems(password, DANA), password).toEqual([]);
    }
  });

  it("counts the person's name and the service's name as guessable words", () => {
    expect(passwordProblems("zylberstein1!", DANA)).toEqual([guessable(1, PERSONAL)]);
    expect(passwordProblems("zylberstein1!", { email: "bob@example.com", name: "Bob Stone" })).toEqual([]);
    expect(passwordProblems("commission tracking service", null)).toEqual([guessable(0, PERSONAL)]);
    expect(userInputs(DANA)).toEqual([
      "commission tracking service",
      "commission",
      "tracking",
      "service",
      "cts",
      "dana.lopez@example.com",
      "dana.lopez",
      "dana",
      "lopez",
      "dana quixotic-zylberstein",
      "quixotic",
      "zylberstein",
    ]);
  });

  it("runs only when the other rules pass: one detail per cause", () => {
    expect(passwordProblems("aaaaaaa", DANA)).toEqual([SHORT]);
    expect(passwordProblems("password1234", DANA)).toEqual([COMMON]);
  });

  // What that bound costs is measured by bench/password-strength.mjs, never timed here.
  it("bounds one estimate's work: only the first 64 characters are judged", () => {
    const worst = "p@$$w0rd".repeat(32); // 256 characters of l33t: 2.3 s with zxcvbn's defaults
    expect(estimateStrength(worst, DANA).score).toBe(0);
    expect(estimateStrength(worst.slice(0, 64), DANA)).toEqual(estimateStrength(worst, DANA));
    expect(estimateStrength(`${worst.slice(0, 64)}Zq7#vW`, DANA)).toEqual(estimateStrength(worst.slice(0, 64), DANA));
  });
});

describe("#26 zxcvbn-ts stays off the start-up path", () => {
  it("importing the password rules loads nothing of it; the first estimate does (a fresh process)", () => {
    const script = `
      import { createRequire } from "node:module";
      const { passwordProblems } = await import("./dist/passwords/index.js");
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes("@zxcvbn-ts/core"));
      const before = loaded();
      passwordProblems("Harbour-Lantern-Quietly-52", null);
      console.log(JSON.stringify([before, loaded()]));`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual([false, true]);
  });

  it("the cts bundle leaves it in node_modules (parsed only when required)", () => {
    const bundle = readFileSync(`${ROOT}/dist/cli/main.js`, "utf8");
    expect(bundle).toContain('("@zxcvbn-ts/core")');
    expect(bundle).not.toContain("class ZxcvbnFactory");
  });
});
