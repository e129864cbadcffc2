import { hostname } from "node:os";
import type pino from "pino";
import { newId } from "../ids.js";

/**
 * A kind of background work the worker loop drives: jobs (this folder), webhook deliveries, retention.
 * `claim` takes due items with a lease and COMMITS before returning, so no transaction is ever held
 * open while `run` does slow work or network I/O; an expired lease makes an item claimable again.
 */
export interface WorkSource<T = unknown> {
  name: string;
  claim(workerId: string, limit: number, now: Date): Promise<T[]>;
  run(item: T, workerId: string): Promise<void>;
  /** Hands this worker's claimed items back (shutdown), so another worker takes them at once. */
  release(workerId: string): Promise<void>;
  /**
   * At most this many items of this source run at once (default: the worker's `concurrency`). Each
   * source has its own slots, so hanging webhook receivers never hold back recalculation jobs.
   */
  concurrency?: number;
}

export interface WorkerOptions {
  sources: readonly WorkSource<unknown>[];
  logger: pino.Logger;
  /** Slots per source that does not set its own. */
  concurrency?: number;
  pollMs?: number;
  clock?: () => Date;
}

export class Worker {
  readonly id = `${hostname()}:${process.pid}:${newId("wrk").slice(-6)}`;
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly busyBySource = new Map<WorkSource<unknown>, number>();
  private wakeUp: (() => void) | undefined;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly clock: () => Date;

  constructor(private readonly options: WorkerOptions) {
    this.concurrency = options.concurrency ?? 8;
    this.pollMs = options.pollMs ?? 500;
    this.clock = options.clock ?? (() => new Date());
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Claim now instead of at the next poll (called after a commit that queued work). */
  wake(): void {
    this.wakeUp?.();
  }

  get busy(): number {
    return this.inFlight.size;
  }

  /** Stops claiming, lets in-flight work finish within `timeoutMs`, then releases every lease it holds. */
  async stop(timeoutMs: number): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    await Promise.race([Promise.allSettled([...this.inFlight]), sleep(timeoutMs)]);
    for (const source of this.options.sources) {
      await source.release(this.id).catch((err) => this.options.logger.warn({ err }, "lease release failed"));
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      let claimed = 0;
      try {
        claimed = await this.claimRound();
      } catch (err) {
        this.options.logger.warn({ err }, "worker claim failed; retrying");
      }
      if (!this.running) break;
      if (claimed === 0 || this.options.sources.every((s) => this.free(s) <= 0)) await this.idle();
    }
  }

  private async claimRound(): Promise<number> {
    let claimed = 0;
    for (const source of this.options.sources) {
      if (!this.running) break;
      const free = this.free(source);
      if (free <= 0) continue;
      const items = await source.claim(this.id, free, this.clock());
      for (const item of items) this.track(source, item);
      claimed += items.length;
    }
    return claimed;
  }

  private free(source: WorkSource<unknown>): number {
    return (source.concurrency ?? this.concurrency) - (this.busyBySource.get(source) ?? 0);
  }

  private track(source: WorkSource<unknown>, item: unknown): void {
    this.busyBySource.set(source, (this.busyBySource.get(source) ?? 0) + 1);
    const task = source
      .run(item, this.id)
      .catch((err) => this.options.logger.error({ err, source: source.name }, "background work failed"))
      .finally(() => {
        this.inFlight.delete(task);
        this.busyBySource.set(source, (this.busyBySource.get(source) ?? 1) - 1);
        this.wake();
      });
    this.inFlight.add(task);
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.pollMs);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.wakeUp = undefined;
        resolve();
      }
      this.wakeUp = done;
    });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
