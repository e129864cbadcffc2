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
}

export interface WorkerOptions {
  sources: readonly WorkSource<unknown>[];
  logger: pino.Logger;
  concurrency?: number;
  pollMs?: number;
  clock?: () => Date;
}

export class Worker {
  readonly id = `${hostname()}:${process.pid}:${newId("wrk").slice(-6)}`;
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();
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
      if (claimed === 0 || this.inFlight.size >= this.concurrency) await this.idle();
    }
  }

  private async claimRound(): Promise<number> {
    let claimed = 0;
    for (const source of this.options.sources) {
      const free = this.concurrency - this.inFlight.size;
      if (free <= 0 || !this.running) break;
      const items = await source.claim(this.id, free, this.clock());
      for (const item of items) this.track(source, item);
      claimed += items.length;
    }
    return claimed;
  }

  private track(source: WorkSource<unknown>, item: unknown): void {
    const task = source
      .run(item, this.id)
      .catch((err) => this.options.logger.error({ err, source: source.name }, "background work failed"))
      .finally(() => {
        this.inFlight.delete(task);
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
