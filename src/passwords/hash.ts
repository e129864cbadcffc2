import { hash, verify } from "@node-rs/argon2";
import { passwordVerifications } from "../metrics.js";

/**
 * argon2id with OWASP's Password Storage Cheat Sheet parameters (19 MiB, 2 iterations, 1 lane). The
 * PHC string carries them, so a later change of parameters still verifies older hashes.
 */
const OWASP = {
  algorithm: 2 /* Argon2id: the package exports it as a const enum */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OWASP);
}

// Verified against when there is no hash to verify (unknown email, no password set, inactive user),
// so every failed sign-in does the same work and takes the same time as a wrong password.
let dummy: Promise<string> | undefined;

/** Counts every argon2 verification: tests show that each kind of failed sign-in does one (and /metrics, across processes). */
export const verifications = { count: 0 };

/** True when `password` matches `stored`; with no stored hash, does the same work and returns false. */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  dummy ??= hashPassword("no password is set for this account");
  const phc = stored ?? (await dummy);
  verifications.count++;
  passwordVerifications.inc();
  const matches = await verify(phc, password).catch(() => false);
  return stored !== null && matches;
}
