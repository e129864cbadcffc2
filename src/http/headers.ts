import { AppError } from "../errors.js";

/**
 * The value of a header that may appear once, from the raw header lines: Node keeps the first
 * `Authorization` and joins repeated `Idempotency-Key`s with a comma, so a repeat would otherwise
 * go unseen. Sent twice or more → 400 `bad_request` (API.md §2).
 */
export function headerSentOnce(rawHeaders: string[], name: string, label: string): string | undefined {
  // Called on every request: no array, and a name is lowercased only if its length could match.
  const wanted = name.toLowerCase();
  let value: string | undefined;
  let times = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const header = rawHeaders[i]!;
    if (header.length === wanted.length && header.toLowerCase() === wanted) {
      times++;
      value ??= rawHeaders[i + 1]!;
    }
  }
  if (times > 1) throw new AppError("bad_request", `The ${label} header was sent ${times} times; send it once`);
  return value;
}
