import type { ControlledTransaction } from "kysely";
import type { RequestTransaction, Tx } from "../context.js";
import type { DB, Db } from "../db/schema.js";
import { AppError } from "../errors.js";
import { findRecord, holdRunningLock, type StoredResponse, saveRecord } from "./repository.js";

export type Outcome = StoredResponse | "secret" | "failed";

export function inUse(idemKey: string): AppError {
  return new AppError(
    "idempotency_key_in_use",
    `A request with Idempotency-Key ${idemKey} is still running; retry shortly`,
  );
}

/**
 * The one transaction of a request sent with an Idempotency-Key: opened by its first withTransaction,
 * joined by later ones, committed by `finish` together with the serialized reply. On PostgreSQL it holds
 * an advisory lock that says "running" and dies with the connection; embedded, one process owns the
 * data and the caller keeps that state in memory.
 */
export class IdempotentRequest implements RequestTransaction {
  private tx: ControlledTransaction<DB> | undefined;
  private opening: Promise<ControlledTransaction<DB>> | undefined;
  private finished = false;
  /** Another request holds the key: this one stores nothing. */
  private lost = false;

  constructor(
    private readonly db: Db,
    private readonly keyId: string,
    private readonly idemKey: string,
    private readonly fingerprint: string,
    private readonly now: Date,
    private readonly crossProcess: boolean,
  ) {}

  async run<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    // Work after the reply (none today) gets a transaction of its own.
    if (this.finished) return this.db.transaction().execute(fn);
    this.opening ??= this.open();
    return fn(await this.opening);
  }

  /** Whether work committed (the crash-test hook fires only then). */
  get opened(): boolean {
    return this.tx !== undefined;
  }

  private async open(): Promise<ControlledTransaction<DB>> {
    const tx = await this.db.startTransaction().execute();
    this.tx = tx;
    if (!this.crossProcess) return tx;
    // After the lock, a fresh snapshot: a request that finished meanwhile has its record visible.
    const free = await holdRunningLock(tx, this.keyId, this.idemKey);
    if (free && !(await findRecord(tx, this.keyId, this.idemKey))) return tx;
    this.lost = true;
    await this.rollback();
    throw inUse(this.idemKey);
  }

  /**
   * Ends the request: a 2xx is stored in the work's own transaction and committed with it; a 4xx
   * undoes any work and is stored alone; a 5xx undoes the work and stores nothing.
   */
  async finish(outcome: Outcome): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    if (this.lost) return;
    await this.opening?.catch(() => {});
    const keep = outcome === "secret" || (outcome !== "failed" && outcome.status < 400);
    if (!keep || !this.tx) {
      await this.rollback();
      if (outcome !== "failed") await saveRecord(this.db, this.record(outcome), "keep-existing");
      return;
    }
    try {
      await saveRecord(this.tx, this.record(outcome), "replace");
      await this.tx.commit().execute();
    } catch (err) {
      await this.rollback();
      throw err;
    }
  }

  /** Safety net for a request that ended without `finish` (e.g. a hijacked reply). */
  async abandon(): Promise<void> {
    this.finished = true;
    await this.opening?.catch(() => {});
    await this.rollback();
  }

  private record(outcome: StoredResponse | "secret") {
    const { keyId, idemKey, fingerprint, now } = this;
    return { keyId, idemKey, fingerprint, createdAt: now, response: outcome };
  }

  private async rollback(): Promise<void> {
    const tx = this.tx;
    if (!tx || tx.isCommitted || tx.isRolledBack) return;
    await tx.rollback().execute();
  }
}
