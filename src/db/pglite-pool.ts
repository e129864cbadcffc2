import type { EmbeddedPg } from "./pglite-thread.js";

interface QueryResult {
  command: string;
  rowCount: number;
  rows: unknown[];
}

/**
 * A pg.Pool look-alike over one PGlite instance (on its own thread), so Kysely's own PostgresDialect drives both
 * databases. PGlite has a single connection: one checkout at a time, queued in FIFO order, which
 * makes a Kysely transaction exclusive for its whole duration (no interleaved statements).
 */
export class PGlitePool {
  private tail: Promise<void> = Promise.resolve();
  private waiting = 0;

  constructor(readonly pglite: EmbeddedPg) {}

  get waitingCount(): number {
    return this.waiting;
  }

  async connect() {
    let release!: () => void;
    const previous = this.tail;
    this.tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.waiting++;
    await previous;
    this.waiting--;
    const pglite = this.pglite;
    let released = false;
    return {
      async query(sql: string, params: readonly unknown[] = []): Promise<QueryResult> {
        // Without parameters use the simple protocol, which also runs multi-statement scripts (migrations).
        if (params.length === 0) {
          const results = await pglite.exec(sql);
          const last = results.at(-1);
          return {
            command: (last as { command?: string })?.command ?? "",
            rowCount: lastCount(last),
            rows: last?.rows ?? [],
          };
        }
        const result = await pglite.query(sql, params as unknown[]);
        const r = result as typeof result & { command?: string; rowCount?: number };
        return { command: r.command ?? "", rowCount: r.rowCount ?? r.affectedRows ?? r.rows.length, rows: r.rows };
      },
      release() {
        if (released) return;
        released = true;
        release();
      },
    };
  }

  async end(): Promise<void> {
    await this.tail;
    await this.pglite.close();
  }
}

function lastCount(result: { rows: unknown[]; affectedRows?: number } | undefined): number {
  if (!result) return 0;
  const r = result as { rowCount?: number; affectedRows?: number; rows: unknown[] };
  return r.rowCount ?? r.affectedRows ?? r.rows.length;
}
