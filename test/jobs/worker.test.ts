import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type JobHandler, jobsSource } from "../../src/jobs/jobs-source.js";
import { enqueueJob, findJob } from "../../src/jobs/queue.js";
import { Worker } from "../../src/jobs/worker.js";
import { openTestDb, type TestDb } from "../harness.js";

const logger = pino({ level: "silent" });
let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(async () => t.dispose());

async function enqueue(kind: string, payload: Record<string, unknown> = {}, total?: number) {
  return t.db.transaction().execute((tx) => enqueueJob(tx, new Date(), { kind, payload, ...(total ? { total } : {}) }));
}

describe("worker loop over the jobs table", () => {
  it("runs a queued job to success and records its progress", async () => {
    const seen: unknown[] = [];
    const handler: JobHandler = async (job, tools) => {
      seen.push(job.payload);
      await tools.progress(3);
    };
    const worker = new Worker({
      sources: [jobsSource({ db: t.db, handlers: { count: handler }, logger })],
      logger,
      pollMs: 20,
    });
    const job = await enqueue("count", { n: 1 }, 3);
    worker.start();
    const finished = await vi.waitFor(
      async () => {
        const found = await findJob(t.db, job.id);
        expect(found?.status).toBe("succeeded");
        return found;
      },
      { timeout: 5_000, interval: 25 },
    );
    await worker.stop(1000);
    expect(seen).toEqual([{ n: 1 }]);
    expect(finished).toMatchObject({ status: "succeeded", total: 3, done: 3, error: null });
    expect(finished!.finished_at).not.toBeNull();
  });

  it("retries a failing job, then marks it failed with the error", async () => {
    let attempts = 0;
    const job = await enqueue("flaky");
    const clock = { ms: Date.now() };
    const source = jobsSource({
      db: t.db,
      handlers: {
        flaky: async () => {
          attempts++;
          throw new Error("upstream said no");
        },
      },
      logger,
      clock: () => new Date(clock.ms),
    });
    for (let round = 0; round < 3; round++) {
      const claimed = await source.claim("w1", 10, new Date(clock.ms));
      expect(claimed.map((j) => j.id)).toEqual([job.id]);
      await source.run(claimed[0]!, "w1");
      clock.ms += 10_000; // past the retry delay
    }
    expect(attempts).toBe(3);
    expect(await findJob(t.db, job.id)).toMatchObject({ status: "failed", error: "upstream said no" });
    expect(await source.claim("w1", 10, new Date(clock.ms))).toEqual([]);
  });

  it("an expired lease makes a job claimable again; release hands it back at once", async () => {
    const source = jobsSource({ db: t.db, handlers: { lease: async () => {} }, logger });
    const job = await enqueue("lease");
    const now = new Date();
    expect((await source.claim("crashed", 10, now)).map((j) => j.id)).toEqual([job.id]);
    expect(await source.claim("other", 10, now)).toEqual([]);
    const later = new Date(now.getTime() + 61_000);
    const reclaimed = await source.claim("other", 10, later);
    expect(reclaimed.map((j) => [j.id, j.claimed_by, j.attempts])).toEqual([[job.id, "other", 2]]);
    await source.release("other");
    expect(await findJob(t.db, job.id)).toMatchObject({ status: "queued" });
    expect((await source.claim("third", 10, later)).map((j) => j.id)).toEqual([job.id]);
    await source.release("third");
  });

  it("concurrent claimers never take the same job", async () => {
    const source = jobsSource({ db: t.db, handlers: { split: async () => {} }, logger });
    await source.release("third");
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add((await enqueue("split")).id);
    const now = new Date();
    const rounds = await Promise.all(["a", "b", "c", "d"].map((w) => source.claim(w, 10, now)));
    const claimed = rounds
      .flat()
      .filter((j) => ids.has(j.id))
      .map((j) => j.id);
    expect(claimed).toHaveLength(20);
    expect(new Set(claimed).size).toBe(20);
  });
});
