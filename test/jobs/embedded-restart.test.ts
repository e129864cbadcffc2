import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { afterAll, describe, expect, it, vi } from "vitest";
import { RECALC_JOB_KIND } from "../../src/commissions/testing.js";
import { openDatabase } from "../../src/db/connect.js";
import { jobsSource } from "../../src/jobs/jobs-source.js";
import { enqueueJob } from "../../src/jobs/queue.js";
import { ctsEnv, fromTemplate, type RunningServer, startServer } from "../cli/spawn.js";

/**
 * #13.25: in embedded mode one process owns the data dir, so at start-up every lease in it belongs to
 * a process that died. A job leased when its process was SIGKILLed runs as soon as the next process
 * starts, not when its 60 s lease runs out. The child always runs embedded (its own data dir).
 */
const dataDir = fromTemplate(mkdtempSync(join(tmpdir(), "cts-jobs-kill-")));
const env = ctsEnv({ CTS_DATA_DIR: dataDir, CTS_ENV: "demo" });
const running: RunningServer[] = [];

afterAll(() => {
  for (const s of running) s.child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

async function jobStatus(server: RunningServer, key: string, id: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/jobs/${id}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { status: string }).status;
}

// Embedded behaviour only: on a PostgreSQL run the child would be the same embedded process again.
describe.skipIf(!!process.env.TEST_DATABASE_URL)(
  "#13.25 embedded start-up takes back the leases of a process that died",
  () => {
    it("a job leased when its process was SIGKILLed runs at once after the restart", async () => {
      const first = await startServer(env);
      running.push(first);
      const key = /cts_demo_[0-9A-Za-z]{43}/.exec(first.stderr())![0];
      first.child.kill("SIGKILL");
      await first.exited;

      // What the killed process's worker had written: a job claimed with a 60 s lease. Written with the
      // worker's own claim, on the crashed data dir, before anything else opens it.
      const database = await openDatabase({ dataDir: join(dataDir, "pgdata") });
      const now = new Date();
      const job = await database.db
        .transaction()
        .execute((tx) => enqueueJob(tx, now, { kind: RECALC_JOB_KIND, payload: { targets: [], env: "demo" } }));
      const source = jobsSource({ db: database.db, handlers: { [RECALC_JOB_KIND]: async () => {} }, logger: pino() });
      const claimed = await source.claim(`dead-host:${first.child.pid}:abcdef`, 1, now);
      expect(claimed.map((j) => [j.id, j.status])).toEqual([[job.id, "running"]]);
      expect(claimed[0]!.locked_until!.getTime()).toBe(now.getTime() + 60_000);
      await database.close();

      const second = await startServer(env);
      running.push(second);
      // A bound on waiting, far inside the lease: 10 s after the restarted server listens.
      await vi.waitFor(async () => expect(await jobStatus(second, key, job.id)).toBe("succeeded"), {
        timeout: 10_000,
        interval: 250,
      });
      expect(second.stdout()).toContain("took back job leases of a process that died");
    }, 120_000);
  },
);
