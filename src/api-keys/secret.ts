import { hash, randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SECRET_LENGTH = 43; // 43 base62 characters carry 256 bits

/** `cts_<env>_<secret>`: the secret is 43 unbiased base62 characters (≥ 32 random bytes). */
export function generateRawKey(environment: string): string {
  let secret = "";
  while (secret.length < SECRET_LENGTH) {
    for (const byte of randomBytes(64)) {
      // 248 = 4 × 62: dropping larger bytes keeps every character equally likely.
      if (byte < 248 && secret.length < SECRET_LENGTH) secret += BASE62[byte % 62];
    }
  }
  return `cts_${environment}_${secret}`;
}

/** Only this hash is stored; the raw key is shown once and never kept. */
export function hashKey(raw: string): string {
  // crypto.hash: one call, no Hash object (it runs on every request).
  return hash("sha256", raw, "hex");
}

/** What the key list shows so people can tell keys apart: `cts_demo_AbCd…`. */
export function displayPrefix(raw: string): string {
  const env = environmentOf(raw) ?? "";
  return `${raw.slice(0, `cts_${env}_`.length + 4)}…`;
}

/** The environment a raw key names, or null when it is not a key of ours at all. */
export function environmentOf(raw: string): string | null {
  const m = /^cts_([a-z][a-z0-9]{1,15})_([0-9A-Za-z]{32,128})$/.exec(raw);
  return m ? m[1]! : null;
}
