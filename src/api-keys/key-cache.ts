import type { Selectable } from "kysely";
import type { EmbeddedPg } from "../db/pglite-thread.js";
import type { ApiKeysTable, Db } from "../db/schema.js";
import { findKeyByHash, readKeyVersion } from "./repository.js";

export type KeyRow = Selectable<ApiKeysTable>;

/** The channel 007_deal_counts.sql notifies whenever a key changes in a way authentication must see. */
export const KEY_CHANNEL = "cts_api_keys";
const MAX_ENTRIES = 10_000;

/**
 * Known keys by hash, so authentication reads nothing per request, while a revocation, rotation,
 * expiry change or scope change still bites on the very next request in every process:
 * - `notified` (embedded): the only process; PGlite delivers the trigger's NOTIFY inside the COMMIT
 *   that changed the key, before that transaction's caller resumes, and the cache empties then.
 * - `versioned` (PostgreSQL, any number of processes): before trusting the cache, a request waits for
 *   a read of `api_key_version` that started after the request arrived. One read in flight serves
 *   every request that arrived before it was sent, so under load it costs far less than one per request.
 * Expiry is checked against the request's clock by the caller; unknown keys are never cached.
 */
export class KeyCache {
  private readonly entries = new Map<string, KeyRow>();
  /** Bumped on every invalidation: a lookup that raced one does not store what it read. */
  private generation = 0;
  private version: string | undefined;
  private readonly versionReads: FreshReads<string> | undefined;
  private stopListening: (() => Promise<void>) | undefined;

  private constructor(
    private readonly db: Db,
    mode: "notified" | "versioned",
  ) {
    if (mode === "versioned") this.versionReads = new FreshReads(() => readKeyVersion(db));
  }

  static versioned(db: Db): KeyCache {
    return new KeyCache(db, "versioned");
  }

  static async notified(db: Db, pglite: EmbeddedPg): Promise<KeyCache> {
    const cache = new KeyCache(db, "notified");
    // Holding the pool's only connection, so LISTEN cannot land inside someone else's transaction.
    const unlisten = await db.connection().execute(() => pglite.listen(KEY_CHANNEL, () => cache.invalidate()));
    cache.stopListening = () => db.connection().execute(() => unlisten());
    return cache;
  }

  /**
   * `fresh`: a read of `api_key_version` that started after the request arrived, made by someone else in
   * the same round trip (the rate limit's statement on PostgreSQL): then no read of its own is waited for.
   */
  async lookup(keyHash: string, fresh?: Promise<string>): Promise<KeyRow | undefined> {
    if (this.versionReads) {
      const version = await (fresh ?? this.versionReads.read());
      if (version !== this.version) {
        this.version = version;
        this.invalidate();
      }
    }
    const cached = this.entries.get(keyHash);
    if (cached) return cached;
    const generation = this.generation;
    const row = await findKeyByHash(this.db, keyHash);
    if (row && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(keyHash, row);
    }
    return row;
  }

  /**
   * The cached row, trusted as it is, when no read is needed to trust it: embedded (`notified`), where a
   * change empties the cache inside its COMMIT. Undefined otherwise (PostgreSQL, or not cached): `lookup`.
   */
  trusted(keyHash: string): KeyRow | undefined {
    return this.versionReads ? undefined : this.entries.get(keyHash);
  }

  /** The cached row, unchecked: it may have been revoked or changed since (`lookup` checks). */
  peek(keyHash: string): KeyRow | undefined {
    return this.entries.get(keyHash);
  }

  invalidate(): void {
    this.entries.clear();
    this.generation++;
  }

  async close(): Promise<void> {
    await this.stopListening?.();
    this.stopListening = undefined;
  }
}

/**
 * Reads that start after the caller asked: a caller joins the read waiting to be sent (if any), else
 * starts one (if none is running), else queues the next one behind the running read.
 */
export class FreshReads<T> {
  private running: Promise<T> | undefined;
  private queued: Promise<T> | undefined;

  constructor(private readonly source: () => Promise<T>) {}

  read(): Promise<T> {
    if (this.queued) return this.queued;
    if (!this.running) return this.start();
    const after = this.running.then(
      () => undefined,
      () => undefined,
    );
    this.queued = after.then(() => {
      this.queued = undefined;
      return this.start();
    });
    return this.queued;
  }

  private start(): Promise<T> {
    const read = this.source();
    this.running = read;
    const done = () => {
      if (this.running === read) this.running = undefined;
    };
    read.then(done, done);
    return read;
  }
}
