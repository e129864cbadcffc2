import { isConnectionError } from "../db/errors.js";
import type { Db } from "../db/schema.js";
import { insertRequestLogs, type RequestLogEntry } from "./repository.js";

const FLUSH_EVERY_MS = 200;
const FLUSH_AT_ROWS = 1000;
/** While the database is away, rows wait (up to this many) and a flush is retried this often. */
const KEEP_WHILE_AWAY_ROWS = 20_000;
const RETRY_AWAY_MS = 1000;

/**
 * Request-log rows are buffered and inserted in batches, off the request's path: one INSERT per
 * ~200 ms (or 1,000 rows) instead of one per request. Readers call `flush()` first so they see their
 * own requests. One array per column, not a parameter per value: on the embedded database, where the
 * insert runs on the server's own thread, that halves its cost per row (bench/README.md).
 */
export class RequestLogWriter {
  private buffer: RequestLogEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> = Promise.resolve();
  private away = false;

  constructor(
    private readonly db: Db,
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
        await insertRequestLogs(this.db, rows);
        this.away = false;
      } catch (err) {
        // One report per outage; the rows of the requests answered 503 meanwhile are written after it.
        if (!this.away) this.onError(err);
        this.away = isConnectionError(err);
        if (this.away && this.buffer.length + rows.length <= KEEP_WHILE_AWAY_ROWS) {
          this.buffer = rows.concat(this.buffer);
          this.timer ??= setTimeout(() => void this.flush(), RETRY_AWAY_MS).unref();
        }
      }
    });
    return this.inFlight;
  }
}
