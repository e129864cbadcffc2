import { createHash } from "node:crypto";

/** Sorted keys at every depth, so the same body always gives the same fingerprint. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

export function fingerprintOf(method: string, path: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method} ${path}\n${JSON.stringify(canonical(body ?? {}))}`)
    .digest("hex");
}

/** A file body (the CSV imports, API.md §19): the method, the path, the query and the file's SHA-256. */
export function fingerprintOfFile(method: string, path: string, query: unknown, text: string): string {
  const file = createHash("sha256").update(text, "utf8").digest("hex");
  return createHash("sha256")
    .update(`${method} ${path}\n${JSON.stringify(canonical(query ?? {}))}\n${file}`)
    .digest("hex");
}
