import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { workSources } from "../../src/app/work-sources.js";
import { setInlineLimit } from "../../src/commissions/testing.js";
import type { CompPlanWritten } from "../../src/comp-plans/testing.js";
import { loadConfig } from "../../src/config.js";
import { findJob } from "../../src/jobs/queue.js";
import { Worker } from "../../src/jobs/worker.js";
import { Api, createDeal, ok, repOnPlan } from "../factories-commissions.js";
import { TEST_SECRET_KEY, type TestApp } from "../harness.js";
import { emitEvent, type Receiver, silent, startReceiver, subscribe, webhookApp } from "../webhooks/support.js";

const WEBHOOK_SLOTS = 8;
let receiver: Receiver;
let t: TestApp;
let api: Api;
beforeAll(async () => {
  receiver = await startReceiver();
  t = await webhookApp(receiver);
  api = new Api(t);
  setInlineLimit(3);
});
afterAll(async () => {
  setInlineLimit(1000);
  await t?.close();
});

describe("#13.26 each work source has its own concurrency", () => {
  it("with every webhook slot held by a hanging receiver, a recalculation job still runs", async () => {
    const { user, plan } = await repOnPlan(api, { tiers: null, quota: null, base_rate: 0.1 });
    for (let i = 1; i <= 5; i++) await createDeal(api, user.id, { arr_amount: 10000, close_date: `2026-07-0${i}` });
    await subscribe(t, (await t.key("admin")).key, { url: receiver.url, events: ["deal.updated"] });
    receiver.replies.push(...Array.from({ length: 3 * WEBHOOK_SLOTS }, () => "hold" as const));
    for (let i = 0; i < WEBHOOK_SLOTS + 4; i++) await emitEvent(t, "deal.updated", { object: { n: i } });

    const settings = { secretKey: TEST_SECRET_KEY, allowHosts: [`127.0.0.1:${receiver.port}`], allowHttp: true };
    const sources = workSources(t.db.db, silent, { settings, exclusive: false }, { jobs: 2, webhooks: WEBHOOK_SLOTS });
    const worker = new Worker({ sources, logger: silent, pollMs: 20 });
    worker.start();
    try {
      await receiver.waitFor(WEBHOOK_SLOTS);
      const jobId = ok<CompPlanWritten>(await api.patch(`/comp-plans/${plan.id}`, { base_rate: 0.2 }))
        .recalculation_job_id as string;
      expect(jobId).toMatch(/^job_/);
      const job = await vi.waitFor(
        async () => {
          const found = await findJob(t.db.db, jobId);
          expect(["succeeded", "failed"]).toContain(found?.status);
          return found;
        },
        { timeout: 60_000, interval: 20 },
      );
      expect(job).toMatchObject({ status: "succeeded", done: 5, total: 5 });
      // The job ran while every webhook slot was still held: no delivery attempt had finished.
      const attempts = await t.db.db.selectFrom("webhook_attempts").select("id").execute();
      expect({ attempts: attempts.length, requests: receiver.received.length }).toEqual({
        attempts: 0,
        requests: WEBHOOK_SLOTS,
      });
    } finally {
      // Let the held deliveries end (their connections dropped) and record their attempts before the
      // schema is dropped: a delivery still writing then deadlocked DROP SCHEMA … CASCADE on PostgreSQL.
      await receiver.close();
      await worker.stop(30_000);
    }
  }, 120_000);
});

describe("#13.26 CTS_WORKER_JOB_CONCURRENCY and CTS_WORKER_WEBHOOK_CONCURRENCY", () => {
  it("default to 4 job slots and 8 webhook slots", () => {
    expect(loadConfig({}).workerConcurrency).toEqual({ jobs: 4, webhooks: 8 });
    expect(
      loadConfig({ CTS_WORKER_JOB_CONCURRENCY: "1", CTS_WORKER_WEBHOOK_CONCURRENCY: "256" }).workerConcurrency,
    ).toEqual({ jobs: 1, webhooks: 256 });
  });

  it.each(["0", "257", "-1", "2.5", "four", "0x10"])("refuse %s", (value) => {
    for (const name of ["CTS_WORKER_JOB_CONCURRENCY", "CTS_WORKER_WEBHOOK_CONCURRENCY"]) {
      expect(() => loadConfig({ [name]: value })).toThrow(`${name} must be a whole number from 1 to 256`);
    }
  });
});
