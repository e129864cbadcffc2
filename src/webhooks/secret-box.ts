import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { closeSync, constants, fchmodSync, fstatSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";

const VERSION = "v1";
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

function assertKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new TypeError(`the secret key must be ${KEY_BYTES} bytes, not ${key.length}`);
}

/** AES-256-GCM with a random IV; the result names its format: `v1:<iv>:<tag>:<ciphertext>` (base64). */
export function encryptSecret(key: Buffer, plaintext: string): string {
  assertKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString("base64"), tag.toString("base64"), ciphertext.toString("base64")].join(":");
}

/** Throws when the box is malformed, was encrypted with another key, or was altered. */
export function decryptSecret(key: Buffer, boxed: string): string {
  assertKey(key);
  const parts = boxed.split(":");
  if (parts.length !== 4 || parts[0] !== VERSION) throw new Error("encrypted secret is not in the v1 format");
  const [iv, tag, ciphertext] = parts.slice(1).map((part) => Buffer.from(part, "base64")) as [Buffer, Buffer, Buffer];
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error("encrypted secret is not in the v1 format");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
  } catch {
    throw new Error("encrypted secret could not be decrypted: wrong CTS_SECRET_KEY, or the data was altered");
  }
}

function createKeyFile(path: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return null;
    throw error;
  }
  try {
    fchmodSync(fd, 0o600);
    const key = randomBytes(KEY_BYTES);
    // Base64 text, the CTS_SECRET_KEY format, so the key can move to a PostgreSQL deployment as is.
    writeSync(fd, `${key.toString("base64")}\n`);
    return key;
  } finally {
    closeSync(fd);
  }
}

function readKeyFile(path: string): Buffer {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error(`${path} is not a regular file`);
    // Tighten rather than refuse: the service keeps running and the file is private from now on.
    if (process.platform !== "win32" && (stat.mode & 0o077) !== 0) fchmodSync(fd, 0o600);
    const key = Buffer.from(readFileSync(fd, "utf8").trim(), "base64");
    if (key.length !== KEY_BYTES) throw new Error(`${path} must hold ${KEY_BYTES} bytes in base64; it is damaged`);
    return key;
  } finally {
    closeSync(fd);
  }
}

/** Embedded mode's key: `<dataDir>/secret.key`, created once with 32 random bytes and mode 0600. */
export function loadOrCreateDataDirKey(dataDir: string): Buffer {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, "secret.key");
  return createKeyFile(path) ?? readKeyFile(path);
}
