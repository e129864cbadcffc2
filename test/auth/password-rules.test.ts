import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.js";
import { checkPassword, commonPasswords, passwordProblems } from "../../src/passwords/index.js";

const EMAIL = "Dana.Lopez@Example.com";
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
    const password = "k7#Vq".repeat(60).slice(0, length);
    expect(password).toHaveLength(length);
    expect(passwordProblems(password, EMAIL)).toEqual(problems);
  });

  it("counts characters as Unicode code points, not UTF-16 units", () => {
    // Each emoji is two UTF-16 units: 6 of them are 12 units but 6 characters.
    expect(passwordProblems("😀🎉🔑🌵🚲🧭", EMAIL)).toEqual([SHORT]);
    expect(passwordProblems("😀🎉🔑🌵🚲🧭😀🎉🔑🌵🚲🧭", EMAIL)).toEqual([]);
    expect(passwordProblems("ñandú-über-ßtraße", EMAIL)).toEqual([]);
    expect(passwordProblems("密码密码密码密码密码密", EMAIL)).toEqual([SHORT]); // 11 characters
  });

  it("refuses the email, ignoring case, and a password containing it or its local part", () => {
    expect(passwordProblems("dana.lopez@example.com", EMAIL)).toEqual([EMAILISH]);
    expect(passwordProblems("DANA.LOPEZ@EXAMPLE.COM", EMAIL)).toEqual([EMAILISH]);
    expect(passwordProblems("my Dana.Lopez@example.com!", EMAIL)).toEqual([EMAILISH]);
    expect(passwordProblems("dana.lopez-2026-rocks", EMAIL)).toEqual([EMAILISH]);
    // A local part of fewer than 4 characters is too short to count on its own.
    expect(passwordProblems("bob-likes-long-walks", "bob@example.com")).toEqual([]);
    expect(passwordProblems("x bob@example.com x", "bob@example.com")).toEqual([EMAILISH]);
  });

  it("refuses a listed common password, ignoring case", () => {
    expect(commonPasswords().has("qwerty123456")).toBe(true);
    expect(passwordProblems("qwerty123456", EMAIL)).toEqual([COMMON]);
    expect(passwordProblems("QWERTY123456", EMAIL)).toEqual([COMMON]);
    expect(passwordProblems("password", EMAIL)).toEqual([SHORT, COMMON]);
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
      checkPassword(secret, EMAIL, "new_password");
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
    expect(() => checkPassword("a fine long passphrase", EMAIL)).not.toThrow();
  });
});
