import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

export class DataDirLockedError extends Error {
  constructor(
    readonly pid: number,
    dataDir: string,
  ) {
    super(`The data dir ${dataDir} is in use by process ${pid}; only one process may open an embedded database`);
    this.name = "DataDirLockedError";
  }
}

interface LockContent {
  pid: number;
  /** The process's start time (kernel ticks since boot): tells a live owner from a recycled pid. */
  started: string | null;
}

export interface DataDirLock {
  path: string;
  release(): void;
}

/** `/proc/N/stat` from field 3 (state) on; null off Linux or when the process is gone. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The fields follow the parenthesised command name, which may itself contain spaces.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** Field 22 (starttime). */
function processStart(pid: number): string | null {
  return statFields(pid)?.[19] ?? null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  // A zombie (killed, not yet reaped: common under a PID 1 that does not reap) holds no files.
  const state = statFields(pid)?.[0];
  return state !== "Z" && state !== "X";
}

/** The process holding the lock, or null when the lock is free or stale (its process is gone). */
export function lockHolder(dataDir: string): number | null {
  let content: LockContent;
  try {
    content = JSON.parse(readFileSync(join(dataDir, "cts.lock"), "utf8"));
  } catch {
    return null;
  }
  if (!Number.isInteger(content.pid) || !isAlive(content.pid)) return null;
  const started = processStart(content.pid);
  if (content.started !== null && started !== null && started !== content.started) return null;
  return content.pid;
}

/**
 * One process per embedded data dir. The lock file holds PID and start time; a lock whose process is
 * gone (SIGKILL, crash) is taken over, so a killed server never blocks the next start.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, "cts.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      const content: LockContent = { pid: process.pid, started: processStart(process.pid) };
      writeSync(fd, JSON.stringify(content));
      closeSync(fd);
      return { path, release: () => releaseIfOurs(path) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const holder = lockHolder(dataDir);
      if (holder !== null && holder !== process.pid) throw new DataDirLockedError(holder, dataDir);
      rmSync(path, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${path}`);
}

function releaseIfOurs(path: string): void {
  try {
    const content: LockContent = JSON.parse(readFileSync(path, "utf8"));
    if (content.pid === process.pid) rmSync(path, { force: true });
  } catch {
    // Already gone: nothing to release.
  }
}
