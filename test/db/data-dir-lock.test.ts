import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { acquireDataDirLock, DataDirLockedError, lockHolder } from "../../src/db/data-dir-lock.js";

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "cts-lock-"));
  dirs.push(dir);
  return dir;
}

function stateOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0]!;
}

function startTimeOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!;
}

/** Writes a lock as a server holding the data dir would: pid and start time. */
function writeLock(dir: string, pid: number): void {
  writeFileSync(join(dir, "cts.lock"), JSON.stringify({ pid, started: startTimeOf(pid) }));
}

/**
 * A child of ours, SIGKILLed and never reaped. Node reaps the children it spawns itself, so the
 * child is a grandchild whose parent (`sh` exec'd into `sleep`) never calls wait(): a real zombie.
 */
async function unreapedZombie(): Promise<number> {
  const parent = spawn("sh", ["-c", "sleep 600 & echo $!; exec sleep 600"], { stdio: ["ignore", "pipe", "ignore"] });
  children.push(parent);
  const pid = await new Promise<number>((resolve) => parent.stdout!.once("data", (d) => resolve(Number(String(d)))));
  // Until `sh` has exec'd into `sleep` it may still reap its dead child between commands (seen under load).
  await vi.waitFor(() => expect(readFileSync(`/proc/${parent.pid}/comm`, "utf8")).toBe("sleep\n"), {
    timeout: 5_000,
    interval: 10,
  });
  const started = startTimeOf(pid);
  process.kill(pid, "SIGKILL");
  await vi.waitFor(() => expect(stateOf(pid)).toBe("Z"), { timeout: 5_000, interval: 10 });
  expect(startTimeOf(pid)).toBe(started);
  return pid;
}

async function liveChild(): Promise<number> {
  const child = spawn("sleep", ["600"], { stdio: "ignore" });
  children.push(child);
  await new Promise((resolve) => child.once("spawn", resolve));
  return child.pid!;
}

describe("#13.24 the data-dir lock", () => {
  it("is taken over from a SIGKILLed process that is still an unreaped zombie", async () => {
    const dir = freshDir();
    const zombie = await unreapedZombie();
    writeLock(dir, zombie);
    expect(lockHolder(dir)).toBeNull();
    const lock = acquireDataDirLock(dir);
    expect(JSON.parse(readFileSync(lock.path, "utf8")).pid).toBe(process.pid);
    lock.release();
  });

  it("is refused while its holder is alive", async () => {
    const dir = freshDir();
    const pid = await liveChild();
    writeLock(dir, pid);
    expect(lockHolder(dir)).toBe(pid);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    expect(() => acquireDataDirLock(dir)).toThrow(`in use by process ${pid}`);
  });

  it("is taken over when the pid was recycled by another process (start time differs)", async () => {
    const dir = freshDir();
    const pid = await liveChild();
    writeFileSync(join(dir, "cts.lock"), JSON.stringify({ pid, started: "1" }));
    expect(lockHolder(dir)).toBeNull();
    acquireDataDirLock(dir).release();
  });
});
