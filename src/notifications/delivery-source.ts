import type pino from "pino";
import type { Db } from "../db/schema.js";
import { newId } from "../ids.js";
import type { WorkSource } from "../jobs/worker.js";
import { decryptSecret } from "../webhooks/index.js";
import { queueWeeklyDigests } from "./digest.js";
import { dueDigest } from "./digest-schedule.js";
import { KIND_OF_EVENT } from "./kinds.js";
import type { Mailer } from "./mailer.js";
import { renderMessage } from "./render.js";
import * as repo from "./repository.js";
import { MAX_ATTEMPTS, retryAt } from "./schedule.js";

const LEASE_MS = 120_000;
const EXPAND_BATCH = 50;

export interface NotificationSourceOptions {
  db: Db;
  logger: pino.Logger;
  /** Undefined when email is not configured: queued events are dropped, nothing is sent. */
  mail: { mailer: Mailer; publicUrl: string; secretKey: Buffer } | undefined;
  clock?: () => Date;
  random?: () => number;
  exclusive?: boolean;
}

/**
 * Turns each queued event into one delivery per person told (in one transaction with the dequeue, the
 * deliveries unique per event, person and kind), so a restart at any moment neither loses nor doubles one.
 */
async function expandQueue(db: Db, now: Date): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const events = await repo.lockQueuedEvents(tx, EXPAND_BATCH);
    for (const event of events) {
      const kind = KIND_OF_EVENT[event.type];
      if (!kind || !event.object_id) continue;
      const recipients = await repo.recipientsOf(tx, event.type, event.object_id);
      await repo.insertDeliveries(
        tx,
        recipients.map((r) => ({
          id: newId("ntf", now.getTime()),
          dedupe_key: `${event.id}:${r.user_id}:${kind}`,
          kind,
          user_id: r.user_id,
          event_id: event.id,
          to_address: r.email,
          data: r.data,
          secret_encrypted: null,
          created_at: now,
        })),
      );
    }
    await repo.dequeueEvents(
      tx,
      events.map((e) => e.id),
    );
    return events.length;
  });
}

/**
 * Email notifications as a work source on the worker loop (docs/notifications.md "Delivery"); each
 * claim at or after Monday 08:00 UTC also queues that week's digests, once (the worker's clock).
 */
export function notificationSource(options: NotificationSourceOptions): WorkSource<repo.ClaimedDelivery> {
  const { db, logger, mail } = options;
  const clock = options.clock ?? (() => new Date());
  const random = options.random ?? Math.random;
  let orphansReleased = !options.exclusive;
  /** The ISO week whose digest this source has seen queued: checked once per week and process. */
  let digestWeek: string | undefined;

  async function queueDigestOnce(now: Date): Promise<void> {
    const due = dueDigest(now);
    if (due.week === digestWeek) return;
    const queued = await queueWeeklyDigests(db, due, now);
    if (queued > 0) logger.info({ week: due.week, digests: queued }, "weekly digests queued");
    digestWeek = due.week;
  }

  async function claim(workerId: string, limit: number, now: Date): Promise<repo.ClaimedDelivery[]> {
    if (!mail) {
      await repo.dropQueue(db);
      return [];
    }
    if (!orphansReleased) {
      const taken = await repo.releaseLeases(db, null);
      if (taken > 0) logger.warn({ deliveries: taken }, "took back notification leases of a process that died");
      orphansReleased = true;
    }
    await queueDigestOnce(now);
    while ((await expandQueue(db, now)) === EXPAND_BATCH) {
      // A backlog: expand it all before sending, batch by batch.
    }
    return repo.claimDeliveries(db, workerId, limit, now, new Date(now.getTime() + LEASE_MS));
  }

  async function run(delivery: repo.ClaimedDelivery): Promise<void> {
    if (!mail) return;
    let secret: string | null = null;
    if (delivery.secret_encrypted) secret = decryptSecret(mail.secretKey, delivery.secret_encrypted);
    const message = renderMessage(delivery.kind, delivery.data, mail.publicUrl, secret);
    const result = await mail.mailer.send({
      ...message,
      to: delivery.to_address,
      messageId: `<${delivery.id}@cts.notifications>`,
    });
    const done = clock();
    if (result.ok) {
      await repo.markSent(db, delivery.id, done);
      return;
    }
    const giveUp = result.permanent || delivery.attempt_count >= MAX_ATTEMPTS;
    // The server's reply only: the address is personal data, the token and SMTP password never appear.
    logger.info(
      { delivery_id: delivery.id, kind: delivery.kind, attempt: delivery.attempt_count, error: result.error },
      giveUp ? "notification failed for good" : "notification attempt failed",
    );
    if (giveUp) await repo.markFailed(db, delivery.id, result.error);
    else await repo.markRetry(db, delivery.id, result.error, retryAt(delivery.attempt_count, done, random));
  }

  return {
    name: "notifications",
    claim,
    run,
    async release(workerId) {
      if (mail) await repo.releaseLeases(db, workerId);
    },
  };
}
