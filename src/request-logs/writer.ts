import type { Kdb } from "../db/connect.js";

export interface RequestLogEntry {
  id: string;
  key_id: string | null;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  client_ip: string | null;
  user_agent: string | null;
  created_at: Date;
}

const FLUSH_EVERY_MS = 200;
const FLUSH_AT_ROWS = 200;

/**
 * Request-log rows are buffered and inserted in batches, off the request's path: one INSERT per
 * ~200 ms instead of one per request. Readers call `flush()` first so they see their own requests.
 */
export class RequestLogWriter {
  private buffer: RequestLogEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kdb,
    private readonly onError: (err: unknown) => void,
  ) {}

  record(entry: RequestLogEntry): void {
    this.buffer.push(entry);
    if (this.buffer.length >= FLUSH_AT_ROWS) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_EVERY_MS).unref();
  }

  /** Writes everything buffered so far; resolves once it is in the database. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const rows = this.buffer;
    this.buffer = [];
    this.inFlight = this.inFlight.then(async () => {
      if (rows.length === 0) return;
      try {
        await this.db.insertInto("request_logs").values(rows).execute();
      } catch (err) {
        this.onError(err);
      }
    });
    return this.inFlight;
  }
}
