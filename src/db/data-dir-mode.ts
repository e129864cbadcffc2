import { chmodSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * Takes group and other permissions off `dir` and everything under it. PGlite's file system chmods
 * the files it creates to 0666 whatever the umask (measured), so this runs after it opened and
 * again at close; in between, the 0700 directories keep its new files from anyone but the owner.
 * Symbolic links are not followed: what they point at is not ours.
 */
export function restrictToOwner(dir: string): void {
  const stat = lstatSync(dir);
  if (stat.isSymbolicLink()) return;
  if ((stat.mode & 0o077) !== 0) chmodSync(dir, stat.mode & 0o7700);
  if (!stat.isDirectory()) return;
  for (const name of readdirSync(dir)) restrictToOwner(join(dir, name));
}
