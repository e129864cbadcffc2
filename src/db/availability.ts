import { describeConnectionError, isConnectionError } from "./errors.js";

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5_000;

/** Thrown instead of connecting while the database is known to be down (→ 503 with Retry-After). */
export class DatabaseUnavailable extends Error {
  readonly code = "08006";

  constructor(
    readonly reason: string,
    readonly retryAfterSeconds: number,
  ) {
    super(`The database is unavailable: ${reason}`);
    this.name = "DatabaseUnavailable";
  }
}

/**
 * A circuit around the pool's connect: after a failed connect, callers fail at once (503) until a
 * backoff delay passes (250 ms doubling to 5 s), then the next connect tries again; one that succeeds
 * closes the circuit. So an outage costs no connect timeout per request and no storm of reconnects.
 */
export class ConnectionGate {
  private down: { reason: string; retryAt: number; delayMs: number } | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  async connect<T>(open: () => Promise<T>): Promise<T> {
    const down = this.down;
    if (down && this.now() < down.retryAt) {
      throw new DatabaseUnavailable(down.reason, Math.max(1, Math.ceil((down.retryAt - this.now()) / 1000)));
    }
    try {
      const client = await open();
      this.down = undefined;
      return client;
    } catch (err) {
      if (isConnectionError(err)) this.fail(err);
      throw err;
    }
  }

  private fail(err: unknown): void {
    const delayMs = this.down ? Math.min(this.down.delayMs * 2, MAX_DELAY_MS) : FIRST_DELAY_MS;
    this.down = { reason: describeConnectionError(err), retryAt: this.now() + delayMs, delayMs };
  }
}
