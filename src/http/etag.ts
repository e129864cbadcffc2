import { hash } from "node:crypto";

/** A strong ETag over the exact bytes of the response body. */
export function etagOf(body: string | Buffer): string {
  // crypto.hash: one call, no Hash object (every 200 GET and every record write pays it).
  return `"${hash("sha256", body, "base64url").slice(0, 27)}"`;
}

/**
 * A tag without the `-br`/`-gzip` a compressed response's carries (API.md §20 (e)): every encoding of one
 * representation names the same version of the record, so conditional requests accept each of them.
 */
function unencoded(tag: string): string {
  return tag.replace(/-(?:br|gzip)"$/, '"');
}

/**
 * RFC 9110 If-Match: `*` matches any current representation, otherwise a listed tag must equal it by
 * strong comparison (a weak tag never matches). `etag` undefined: there is no current representation.
 */
export function matchesIfMatch(header: string, etag: string | undefined): boolean {
  if (etag === undefined) return false;
  if (header.trim() === "*") return true;
  const current = unencoded(etag);
  return header.split(",").some((tag) => unencoded(tag.trim()) === current);
}

/** RFC 9110 If-None-Match: `*` or a list of (possibly weak) tags; weak comparison is allowed for GET. */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const current = unencoded(etag);
  return header.split(",").some((tag) => unencoded(tag.trim().replace(/^W\//, "")) === current);
}
