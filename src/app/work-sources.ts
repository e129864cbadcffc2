import type pino from "pino";
import { recalculateJobHandler } from "../commissions/index.js";
import { planImpactJobHandler } from "../comp-plans/index.js";
import type { Db } from "../db/schema.js";
import { type JobHandler, jobsSource } from "../jobs/jobs-source.js";
import type { JobKind } from "../jobs/kinds.js";
import type { WorkSource } from "../jobs/worker.js";
import { type Mailer, notificationSource } from "../notifications/index.js";
import { createSafeAgent, deliverySource, type WebhookSettings } from "../webhooks/index.js";
import { embeddedRetentionJobHandler, retentionJobHandler } from "./retention.js";

/** Slots per work source (CTS_WORKER_JOB_CONCURRENCY, CTS_WORKER_WEBHOOK_CONCURRENCY). */
export interface SourceConcurrency {
  jobs: number;
  webhooks: number;
}

/** Every kind of background work this deployment runs, wired explicitly (no auto-discovery). */
export function workSources(
  db: Db,
  logger: pino.Logger,
  webhooks: { settings: WebhookSettings; exclusive: boolean },
  concurrency: SourceConcurrency,
  /** CTS_SMTP_URL's client and the links' origin; without it queued notifications are dropped. */
  mail?: { mailer: Mailer; publicUrl: string; secretKey: Buffer },
): WorkSource<unknown>[] {
  // One handler per kind of jobs/kinds.ts (the type refuses a missing or unknown kind).
  const handlers: Record<JobKind, JobHandler> = {
    retention: webhooks.exclusive ? embeddedRetentionJobHandler : retentionJobHandler,
    recalculate: recalculateJobHandler,
    plan_impact: planImpactJobHandler,
  };
  const { settings } = webhooks;
  const agent = createSafeAgent({
    allowHosts: settings.allowHosts,
    allowHttp: settings.allowHttp,
    lookup: settings.lookup,
  });
  return [
    { ...jobsSource({ db, handlers, logger, exclusive: webhooks.exclusive }), concurrency: concurrency.jobs },
    {
      ...deliverySource({ db, agent, secretKey: settings.secretKey, logger, exclusive: webhooks.exclusive }),
      concurrency: concurrency.webhooks,
    },
    { ...notificationSource({ db, logger, mail, exclusive: webhooks.exclusive }), concurrency: 2 },
  ];
}
