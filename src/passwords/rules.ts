import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { AppError, type ErrorDetail } from "../errors.js";
import { estimateStrength, MIN_STRENGTH, type PasswordOwner } from "./strength.js";

/** API.md §11: a password has 12 to 256 characters (Unicode code points, so "é" or "😀" counts once). */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/** The email's local part counts as part of the email when it has at least this many characters. */
const LOCAL_PART_MIN_LENGTH = 4;

// The common-password list: `passwords.json` of the npm package @zxcvbn-ts/language-common (MIT,
// https://github.com/zxcvbn-ts/zxcvbn, pinned exactly in package.json), 49,233 passwords ranked by
// frequency in public breach corpora. Read once, on first use, into a Set of lower-cased entries.
let common: ReadonlySet<string> | undefined;

/** Case-folded for every comparison: "Qwerty123456" is as common as "qwerty123456". */
function fold(text: string): string {
  return text.normalize("NFKC").toLowerCase();
}

export function commonPasswords(): ReadonlySet<string> {
  if (!common) {
    const path = createRequire(import.meta.url).resolve("@zxcvbn-ts/language-common/src/passwords.json");
    const list = JSON.parse(readFileSync(path, "utf8")) as string[];
    common = new Set(list.map(fold));
  }
  return common;
}

/** True when the password is, or contains, the person's email (or its local part of 4+ characters). */
function containsEmail(folded: string, email: string): boolean {
  const address = fold(email);
  if (folded.includes(address)) return true;
  const local = address.slice(0, address.lastIndexOf("@"));
  return [...local].length >= LOCAL_PART_MIN_LENGTH && folded.includes(local);
}

/**
 * Every rule of API.md §11 the password breaks, as 422 `details` entries under `param` (the body
 * field: `password` or `new_password`). The rules: 12 to 256 characters; not the email — neither the
 * whole address nor its local part (the text before the @, when it has 4 or more characters) may
 * appear in it, ignoring case (skipped when `owner` is null: no account known yet); not on the
 * common-password list, ignoring case; and, when it breaks none of those, a zxcvbn estimate of at
 * least 3 of 4 (§20 (c)), the estimator's hint in the message. No message repeats the password.
 */
export function passwordProblems(password: string, owner: PasswordOwner | null, param = "password"): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) {
    problems.push({ param, message: `must have at least ${PASSWORD_MIN_LENGTH} characters` });
  } else if (length > PASSWORD_MAX_LENGTH) {
    problems.push({ param, message: `must have at most ${PASSWORD_MAX_LENGTH} characters` });
  }
  const folded = fold(password);
  if (owner && containsEmail(folded, owner.email)) {
    problems.push({ param, message: "must not contain your email address or the part of it before the @" });
  }
  if (commonPasswords().has(folded)) {
    problems.push({ param, message: "is on the list of commonly used passwords; choose a less predictable one" });
  }
  if (problems.length > 0) return problems;
  const { score, hint } = estimateStrength(password, owner);
  if (score < MIN_STRENGTH) {
    problems.push({ param, message: `is too easy to guess (strength ${score} of 4, ${MIN_STRENGTH} needed): ${hint}` });
  }
  return problems;
}

/** Throws 422 `validation_error` with every problem of `passwordProblems`, if there is one. */
export function checkPassword(password: string, owner: PasswordOwner | null, param = "password"): void {
  const problems = passwordProblems(password, owner, param);
  if (problems.length === 0) return;
  const summary = problems.map((p) => `${p.param} ${p.message}`).join("; ");
  throw new AppError("validation_error", `Invalid password: ${summary}`, problems);
}
