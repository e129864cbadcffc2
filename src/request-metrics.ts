import type { Registry } from "prom-client";

/** One route, method and status: its request count, latency sum and per-bucket counts (not cumulative). */
interface Series {
  labels: { route: string; method: string; status: number };
  count: number;
  sum: number;
  buckets: number[];
}

/** What prom-client's registry reads of a metric (its `get()`), as its own Counter and Histogram answer. */
interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/**
 * `cts_http_requests_total` and `cts_http_request_duration_seconds`, counted on every request. prom-client's
 * Counter and Histogram hash and validate the label object on each call (and `labels()` children only
 * bind it); here the series is found through three map lookups and its numbers bumped, and the registry
 * reads the same series through the interface it reads its own metrics by: the text exposition is the
 * one prom-client's Counter and Histogram write for the same observations (test/operations).
 */
export class RequestMetrics {
  private readonly series = new Map<string, Map<string, Map<number, Series>>>();

  constructor(
    registry: Registry,
    names: { count: string; countHelp: string; duration: string; durationHelp: string },
    private readonly bounds: readonly number[],
  ) {
    registry.registerMetric({
      name: names.count,
      help: names.countHelp,
      type: "counter",
      aggregator: "sum",
      get: async () =>
        this.snapshot(names.count, names.countHelp, "counter", (s) => [{ labels: s.labels, value: s.count }]),
      reset: () => this.series.clear(),
    } as never);
    registry.registerMetric({
      name: names.duration,
      help: names.durationHelp,
      type: "histogram",
      aggregator: "sum",
      get: async () =>
        this.snapshot(names.duration, names.durationHelp, "histogram", (s) => this.histogram(names.duration, s)),
      reset: () => this.series.clear(),
    } as never);
  }

  record(route: string, method: string, status: number, seconds: number): void {
    let byMethod = this.series.get(route);
    if (!byMethod) {
      byMethod = new Map();
      this.series.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (!byStatus) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let series = byStatus.get(status);
    if (!series) {
      series = { labels: { route, method, status }, count: 0, sum: 0, buckets: this.bounds.map(() => 0) };
      byStatus.set(status, series);
    }
    series.count++;
    series.sum += seconds;
    const bucket = this.bounds.findIndex((bound) => seconds <= bound);
    if (bucket !== -1) series.buckets[bucket]!++;
  }

  private snapshot(name: string, help: string, type: string, values: (s: Series) => MetricValue[]) {
    const all: MetricValue[] = [];
    for (const byMethod of this.series.values()) {
      for (const byStatus of byMethod.values()) for (const s of byStatus.values()) all.push(...values(s));
    }
    return { name, help, type, values: all, aggregator: "sum" };
  }

  /** Cumulative buckets, `+Inf`, `_sum` and `_count`, labelled as prom-client's Histogram labels them. */
  private histogram(name: string, s: Series): MetricValue[] {
    let below = 0;
    const values: MetricValue[] = this.bounds.map((le, i) => {
      below += s.buckets[i]!;
      return { labels: { le, ...s.labels }, value: below, metricName: `${name}_bucket` };
    });
    values.push(
      { labels: { le: "+Inf", ...s.labels }, value: s.count, metricName: `${name}_bucket` },
      { labels: { ...s.labels }, value: s.sum, metricName: `${name}_sum` },
      { labels: { ...s.labels }, value: s.count, metricName: `${name}_count` },
    );
    return values;
  }
}
