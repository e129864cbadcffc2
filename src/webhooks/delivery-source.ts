import { performance } from "node:perf_hooks";
import type pino from "pino";
import type { Db } from "../db/schema.js";
import type { WorkSource } from "../jobs/worker.js";
import { attemptDelivery } from "./attempt.js";
import { AttemptLog } from "./attempt-log.js";
import { ClaimBuffer } from "./claim-buffer.js";
import {
  analyzeDeliveries,
  type ClaimedDelivery,
  claimDeliveries,
  releaseAllLeases,
  releaseLeases,
  returnUnstarted,
} from "./deliveries-repository.js";
import type { SafeAgent } from "./safe-fetch.js";
import { AUTO_DISABLE_AFTER_MS, judge, nextStep } from "./schedule.js";

/** Longer than the 15 s delivery timeout plus recording, so a live worker never loses its lease. */
const DEFAULT_LEASE_MS = 60_000;
/** Leased per claim statement even when fewer slots are free: one round trip serves the next slots. */
const DEFAULT_CLAIM_BATCH = 16;
const ANALYZE_EVERY_MS = 5 * 60_000;

export interface DeliverySourceOptions {
  db: Db;
  agent: SafeAgent;
  /** Decrypts the signing secrets. */
  secretKey: Buffer;
  logger: pino.Logger;
  clock?: () => Date;
  /** [0, 1) like Math.random: the retry jitter. */
  random?: () => number;
  leaseMs?: number;
  timeoutMs?: number;
  claimBatch?: number;
  /**
   * This process is the only one that can hold leases (embedded mode: the data-dir lock), so any
   * lease found at start-up belongs to a dead process and is taken back at once, not at expiry.
   */
  exclusive?: boolean;
}

/** Webhook deliveries as a work source on the worker loop (API.md §6 "Delivery"). */
export function deliverySource(options: DeliverySourceOptions): WorkSource<ClaimedDelivery> {
  const { db, agent, logger } = options;
  const clock = options.clock ?? (() => new Date());
  const random = options.random ?? Math.random;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  let orphansReleased = !options.exclusive;
  let analyzedAt = Number.NEGATIVE_INFINITY;
  let running = 0;
  const log = new AttemptLog(db, () => running);
  const buffer = new ClaimBuffer(leaseMs);
  const claimBatch = options.claimBatch ?? DEFAULT_CLAIM_BATCH;

  async function run(delivery: ClaimedDelivery, workerId: string): Promise<void> {
    running += 1;
    try {
      await attempt(delivery, workerId);
    } finally {
      running -= 1;
    }
  }

  async function attempt(delivery: ClaimedDelivery, workerId: string): Promise<void> {
    const attemptedAt = clock();
    const result = await attemptDelivery(agent, delivery, {
      key: options.secretKey,
      now: attemptedAt,
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    });
    const done = clock();
    const verdict = judge(result.status, result.retryAfter, done);
    const step = nextStep(verdict, delivery.attempt_count, delivery.final_attempt, done, random);
    await log.record({
      deliveryId: delivery.id,
      workerId,
      attempt: delivery.attempt_count,
      attemptedAt,
      responseStatus: result.status,
      durationMs: result.durationMs,
      error: result.error,
      responseBody: result.body,
      step,
      succeeded: verdict.succeeded,
      gone: verdict.gone,
      staleBefore: new Date(done.getTime() - AUTO_DISABLE_AFTER_MS),
    });
    if (!verdict.succeeded) {
      const { id, attempt_count: attempt } = delivery;
      logger.info(
        { delivery_id: id, attempt, status: result.status, error: result.error, next: step.status },
        "webhook attempt failed",
      );
    }
  }

  async function claim(workerId: string, limit: number, now: Date): Promise<ClaimedDelivery[]> {
    if (!orphansReleased) {
      const taken = await releaseAllLeases(db);
      if (taken > 0) logger.warn({ deliveries: taken }, "took back webhook leases of a process that died");
      orphansReleased = true;
    }
    const stale = buffer.takeStale(workerId, now);
    if (stale.length > 0) await returnUnstarted(db, workerId, stale);
    const missing = limit - buffer.size(workerId);
    if (missing > 0) {
      const wanted = Math.max(missing, claimBatch);
      const claimed = await claimDeliveries(db, workerId, wanted, now, leaseMs);
      buffer.add(workerId, claimed, now);
      // A full batch means a backlog: the moment statistics matter to the claim's plan.
      if (claimed.length === wanted && performance.now() - analyzedAt > ANALYZE_EVERY_MS) {
        analyzedAt = performance.now();
        await analyzeDeliveries(db).catch((err) => logger.warn({ err }, "ANALYZE webhook_deliveries failed"));
      }
    }
    return buffer.take(workerId, limit);
  }

  return {
    name: "webhook-deliveries",
    claim,
    run,
    async release(workerId) {
      await returnUnstarted(db, workerId, buffer.takeAll(workerId));
      await releaseLeases(db, workerId);
    },
  };
}
