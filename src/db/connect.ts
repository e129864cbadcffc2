import { existsSync, readdirSync, readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PostgresDialect } from "kysely";
import type pg from "pg";
import { ConnectionGate } from "./availability.js";
import { noteEmbedded } from "./embedded.js";
import { describeConnectionError } from "./errors.js";
import { PGlitePool } from "./pglite-pool.js";
import { type EmbeddedPg, startEmbedded } from "./pglite-thread.js";
import type { DB, Db } from "./schema.js";

export interface Database {
  db: Db;
  kind: "postgres" | "pglite";
  /** The embedded instance (PGlite only, on its own thread): notifications; tests dump it as a template. */
  pglite?: EmbeddedPg;
  /** Connections waiting for the pool (metrics). */
  waitingCount(): number;
  close(): Promise<void>;
}

const OID = { INT8: 20, DATE: 1082, NUMERIC: 1700 } as const;
const asText = (value: string) => value;

// Both drivers must agree: bigint and numeric as exact strings, `date` as "YYYY-MM-DD" (never a
// local-midnight Date, which shifts by the server's time zone).
const pgTypes = (driver: typeof pg) => ({
  getTypeParser(oid: number, format?: string) {
    if (oid === OID.DATE || oid === OID.INT8 || oid === OID.NUMERIC) return asText;
    return driver.types.getTypeParser(oid, format as "text");
  },
});

export interface OpenOptions {
  /** postgres://… ; without it, PGlite. */
  url?: string;
  /** PostgreSQL schema to use (tests give each file its own). */
  schema?: string;
  /** PGlite data dir; undefined = in memory. */
  dataDir?: string;
  /** PGlite: start from a dumped data dir (tests). */
  loadDataDir?: Blob | File;
  poolSize?: number;
  /** PostgreSQL: told when a connection is lost (the pool drops it; the next checkout reconnects). */
  onConnectionLost?: (reason: string) => void;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url, options.schema, options.poolSize ?? 10, options.onConnectionLost);
  return openPGlite(options.dataDir, options.loadDataDir);
}

/**
 * Every statement here is short and index-driven; JIT compilation (on by default from PostgreSQL 12)
 * costs 100–300 ms per statement and fires on cost estimates, which stale statistics right after a bulk
 * load inflate: a 15 ms batch update of 5,000 deal totals was seen taking 375 ms.
 */
export const POSTGRES_SETTINGS = ["jit=off"];

async function openPostgres(
  url: string,
  schema: string | undefined,
  max: number,
  onLost: (reason: string) => void = () => {},
): Promise<Database> {
  // pg is loaded for PostgreSQL only: its import costs ~0.3 s (it probes for Cloudflare's runtime, which
  // loads Node's fetch), which embedded start-ups need not pay.
  const { default: driver } = await import("pg");
  const pool = new driver.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 5000,
    types: pgTypes(driver),
    options: [...POSTGRES_SETTINGS, ...(schema ? [`search_path=${schema}`] : [])].map((s) => `-c ${s}`).join(" "),
  });
  // A client losing its connection (a restart, pg_terminate_backend) must not crash the process: pg
  // emits 'error' on it, which pg-pool listens to only while the client is idle. A checked-out client
  // gets a listener of its own; its query fails (→ 503) and the pool drops it on release.
  const lost = (err: unknown) => onLost(describeConnectionError(err));
  pool.on("error", () => {}); // the idle client's own listener below reports it
  pool.on("connect", (client) => client.on("error", lost));
  const gate = new ConnectionGate();
  const gated = { connect: () => gate.connect(() => pool.connect()), end: () => pool.end() };
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: gated }) });
  return { db, kind: "postgres", waitingCount: () => pool.waitingCount, close: () => db.destroy() };
}

// Baked by the build (scripts/build.mjs): an initdb'd empty cluster, so a new data dir skips initdb.
const TEMPLATE = new URL("./pgdata-template.tar.gz", import.meta.url);

function templateFor(dataDir: string | undefined): Blob | undefined {
  const fresh = dataDir !== undefined && (!existsSync(dataDir) || readdirSync(dataDir).length === 0);
  return fresh && existsSync(TEMPLATE) ? new Blob([readFileSync(TEMPLATE)]) : undefined;
}

/**
 * PostgreSQL's default shared_buffers (128 MB) is allocated and touched at start inside PGlite's WASM
 * memory: ~130 MB of RSS before the first query. 16 MB holds the hot pages of an embedded deployment
 * (the rest are a read away in the OS cache). Passed as start parameters, so the data dir's
 * postgresql.conf is left as it is (PGlite's `postgresqlconf` option would rewrite it).
 */
export const PGLITE_SETTINGS = ["shared_buffers=16MB"];

async function openPGlite(dataDir: string | undefined, loadDataDir: Blob | File | undefined): Promise<Database> {
  const pglite = await startEmbedded({
    dataDir,
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ["-c", setting])],
    textTypes: [OID.INT8, OID.DATE, OID.NUMERIC],
    loadDataDir: loadDataDir ?? templateFor(dataDir),
  });
  const pool = new PGlitePool(pglite);
  noteEmbedded();
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: pool as never }) });
  return { db, kind: "pglite", pglite, waitingCount: () => pool.waitingCount, close: () => db.destroy() };
}
