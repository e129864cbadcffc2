import type { ApiError } from "../../api/errors";

/** API.md §11: 12 to 256 characters, counted as Unicode code points like the server counts them. */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

export const passwordLength = (password: string) => [...password].length;

/** True when the password is, or contains, the email or its local part of 4+ characters (as the server judges). */
export function containsEmail(password: string, email: string): boolean {
  const fold = (text: string) => text.normalize("NFKC").toLowerCase();
  const folded = fold(password);
  const address = fold(email);
  if (folded.includes(address)) return true;
  const local = address.slice(0, address.lastIndexOf("@"));
  return [...local].length >= 4 && folded.includes(local);
}

/** What the browser can tell before submitting; the common-password list only the server has. */
export function passwordReady(password: string, confirm: string, email?: string): boolean {
  const length = passwordLength(password);
  return (
    length >= PASSWORD_MIN &&
    length <= PASSWORD_MAX &&
    !(email && containsEmail(password, email)) &&
    password === confirm
  );
}

/** The API's 422 `details` about one body field, as sentences about "this password". */
export function passwordProblemsOf(error: ApiError | null, param: string): string[] {
  if (error?.status !== 422) return [];
  // A message may end in the estimator's own sentences (§20 (c)): no second full stop then.
  const sentence = (message: string) => `This password ${message}${/[.!?]$/.test(message) ? "" : "."}`;
  return (error.details ?? []).filter((d) => d.param === param).map((d) => sentence(d.message));
}
