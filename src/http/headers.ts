import { AppError } from "../errors.js";

/**
 * The value of a header that may appear once, from the raw header lines: Node keeps the first
 * `Authorization` and joins repeated `Idempotency-Key`s with a comma, so a repeat would otherwise
 * go unseen. Sent twice or more → 400 `bad_request` (API.md §2).
 */
export function headerSentOnce(rawHeaders: string[], name: string, label: string): string | undefined {
  const wanted = name.toLowerCase();
  const values: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === wanted) values.push(rawHeaders[i + 1]!);
  }
  if (values.length > 1) {
    throw new AppError("bad_request", `The ${label} header was sent ${values.length} times; send it once`);
  }
  return values[0];
}
