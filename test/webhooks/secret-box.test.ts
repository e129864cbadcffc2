import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret } from "../../src/webhooks/index.js";
import { generateWebhookSecret, loadOrCreateDataDirKey } from "../../src/webhooks/testing.js";

const key = randomBytes(32);

function flip(boxed: string, part: number): string {
  const parts = boxed.split(":");
  const bytes = Buffer.from(parts[part]!, "base64");
  bytes[0]! ^= 1;
  parts[part] = bytes.toString("base64");
  return parts.join(":");
}

describe("encryptSecret / decryptSecret", () => {
  it("round-trips, self-describing, with a fresh IV each time", () => {
    const secret = generateWebhookSecret();
    const boxed = encryptSecret(key, secret);
    expect(boxed).toMatch(/^v1:[A-Za-z0-9+/=]{16}:[A-Za-z0-9+/=]{24}:[A-Za-z0-9+/=]+$/);
    expect(boxed).not.toContain(secret.slice(6));
    expect(decryptSecret(key, boxed)).toBe(secret);
    expect(encryptSecret(key, secret)).not.toBe(boxed);
  });

  it.each([
    [1, "IV"],
    [2, "tag"],
    [3, "ciphertext"],
  ])("throws when the %s part (%s) was altered", (part) => {
    const boxed = encryptSecret(key, generateWebhookSecret());
    expect(() => decryptSecret(key, flip(boxed, part))).toThrow(/could not be decrypted/);
  });

  it("throws with the wrong key, a malformed box, or a key of the wrong size", () => {
    const boxed = encryptSecret(key, "whsec_x");
    expect(() => decryptSecret(randomBytes(32), boxed)).toThrow(/wrong CTS_SECRET_KEY/);
    expect(() => decryptSecret(key, "v2:a:b:c")).toThrow(/format/);
    expect(() => decryptSecret(key, boxed.split(":").slice(0, 3).join(":"))).toThrow(/format/);
    expect(() => encryptSecret(randomBytes(16), "x")).toThrow(/32 bytes/);
  });
});

describe("loadOrCreateDataDirKey", () => {
  const root = mkdtempSync(join(tmpdir(), "cts-key-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("creates <dataDir>/secret.key with mode 0600 and reuses it", () => {
    const dataDir = join(root, "data");
    const first = loadOrCreateDataDirKey(dataDir);
    expect(first).toHaveLength(32);
    const file = join(dataDir, "secret.key");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, "utf8").trim(), "base64").equals(first)).toBe(true);
    expect(loadOrCreateDataDirKey(dataDir).equals(first)).toBe(true);
  });

  it("tightens a key file readable by others to 0600", () => {
    const dataDir = join(root, "loose");
    const created = loadOrCreateDataDirKey(dataDir);
    chmodSync(join(dataDir, "secret.key"), 0o644);
    expect(loadOrCreateDataDirKey(dataDir).equals(created)).toBe(true);
    expect(statSync(join(dataDir, "secret.key")).mode & 0o777).toBe(0o600);
  });

  it("refuses a damaged key file instead of replacing it", () => {
    const dataDir = join(root, "damaged");
    loadOrCreateDataDirKey(dataDir);
    writeFileSync(join(dataDir, "secret.key"), "short\n");
    expect(() => loadOrCreateDataDirKey(dataDir)).toThrow(/damaged/);
  });
});
