import { Counter, collectDefaultMetrics, Gauge, Registry } from "prom-client";
import { RequestMetrics } from "./request-metrics.js";

/**
 * Prometheus metrics of this process. Served only on CTS_METRICS_PORT (never on the API port).
 * Counters live here, at the bottom floor, so the pipeline, the worker and the webhook sender can
 * all count without importing each other.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: "cts_" });

/** cts_http_requests_total and cts_http_request_duration_seconds, by route, method and status (every request). */
export const httpMetrics = new RequestMetrics(
  registry,
  {
    count: "cts_http_requests_total",
    countHelp: "HTTP requests by route, method and status",
    duration: "cts_http_request_duration_seconds",
    durationHelp: "HTTP request latency by route, method and status",
  },
  [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
);

export const rateLimitRejections = new Counter({
  name: "cts_rate_limit_rejections_total",
  help: "Requests refused with 429, by limiter (key: per API key, user: per signed-in person, ip: failed authentication per client IP)",
  labelNames: ["limiter"] as const,
  registers: [registry],
});

/** Every argon2 password verification (sign-ins, a dummy one for each failure with no hash, current passwords). */
export const passwordVerifications = new Counter({
  name: "cts_password_verifications_total",
  help: "Password verifications (argon2id): sign-ins, failed ones included, and current passwords of password changes",
  registers: [registry],
});

export const deliveryAttempts = new Counter({
  name: "cts_webhook_delivery_attempts_total",
  help: "Webhook delivery attempts by result (succeeded, failed, refused, timeout, network)",
  labelNames: ["result"] as const,
  registers: [registry],
});

export const jobsProcessed = new Counter({
  name: "cts_jobs_finished_total",
  help: "Background job attempts finished, by kind and outcome (succeeded, retried, failed)",
  labelNames: ["kind", "status"] as const,
  registers: [registry],
});

/** A gauge whose value is read when Prometheus scrapes (database counts, pool state). */
export function gaugeFrom(
  name: string,
  help: string,
  read: () => Promise<number | Record<string, number>>,
  label?: string,
): Gauge {
  registry.removeSingleMetric(name);
  return new Gauge({
    name,
    help,
    labelNames: label ? [label] : [],
    registers: [registry],
    async collect() {
      const value = await read().catch(() => undefined);
      if (value === undefined) return;
      if (typeof value === "number") this.set(value);
      else for (const [k, v] of Object.entries(value)) this.set({ [label ?? "state"]: k }, v);
    },
  });
}
