import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Worker } from "node:worker_threads";
import type { Results } from "@electric-sql/pglite";

/** What the app uses of the embedded PostgreSQL: statements, notifications, a dump of its files, closing. */
export interface EmbeddedPg {
  query(sql: string, params: unknown[]): Promise<Results>;
  /** The simple protocol: several statements (migrations), no parameters. */
  exec(sql: string): Promise<Results[]>;
  /** Calls `onNotify` for each NOTIFY on `channel`, before the statement that sent it resolves. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  dumpDataDir(compression: "none" | "gzip"): Promise<Blob>;
  close(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string | undefined;
  startParams: string[];
  /** Type OIDs read as their text (bigint, numeric, date), as the PostgreSQL driver is told to. */
  textTypes: number[];
  loadDataDir: Blob | undefined;
}

interface Reply {
  id?: number;
  /** Part of a long reply's rows (sent ahead of `value`, whose rows are then empty), and whose: an exec's
   * result by index, or -1 for a query's one result. */
  rows?: unknown[];
  result?: number;
  value?: unknown;
  error?: Record<string, unknown>;
  notify?: string;
  payload?: string;
  ready?: boolean;
}

/** An error as the worker threw it: the same message and fields (`code`, `constraint`, …). */
function rebuilt(error: Record<string, unknown>): Error {
  const { message, stack: _, ...fields } = error;
  return Object.assign(new Error(String(message)), fields);
}

/** A compiled WebAssembly.Module (the build's TypeScript libraries declare no WebAssembly). */
type WasmModule = object;
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } })
  .WebAssembly;
let compiled: Promise<WasmModule> | undefined;

/** PGlite's WASM, compiled once per process and handed to each database's thread (tests open hundreds). */
function pgliteWasm(): Promise<WasmModule> {
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  compiled ??= readFile(join(dirname(entry), "pglite.wasm")).then((bytes) => wasm.compile(bytes));
  return compiled;
}

/** A reply whose long results' rows came ahead in parts (pglite-worker.mjs), made whole again. */
function joined(value: unknown, parts: Map<number, unknown[]>): unknown {
  const withRows = (result: Results, index: number) => {
    const rows = parts.get(index);
    return rows ? { ...result, rows } : result;
  };
  return Array.isArray(value) ? value.map(withRows) : withRows(value as Results, -1);
}

/**
 * PGlite in a worker thread (pglite-worker.mjs): the statements run beside the server's thread instead
 * of on it (issue #19, no stall). Statements keep PGlite's one session: the pool above still hands it
 * to one transaction at a time. Results and errors cross as structured clones.
 */
export async function startEmbedded(options: EmbeddedOptions): Promise<EmbeddedPg> {
  const loadDataDir = options.loadDataDir ? new Uint8Array(await options.loadDataDir.arrayBuffer()) : undefined;
  const worker = new Worker(new URL("./pglite-worker.mjs", import.meta.url), {
    workerData: { ...options, loadDataDir, wasmModule: await pgliteWasm() },
    transferList: loadDataDir ? [loadDataDir.buffer] : [],
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
  const listeners = new Map<string, (payload: string) => void>();
  const partsOf = new Map<number, Map<number, unknown[]>>();
  let nextId = 0;
  let exited: Error | undefined;

  const ready = new Promise<void>((resolve, reject) => {
    worker.on("message", (reply: Reply) => {
      if (reply.ready !== undefined) {
        if (reply.ready) resolve();
        else reject(rebuilt(reply.error ?? {}));
        return;
      }
      if (reply.notify !== undefined) {
        listeners.get(reply.notify)?.(reply.payload ?? "");
        return;
      }
      if (reply.rows) {
        const parts = partsOf.get(reply.id!) ?? new Map<number, unknown[]>();
        partsOf.set(reply.id!, parts);
        const rows = parts.get(reply.result!) ?? [];
        parts.set(reply.result!, rows);
        for (const row of reply.rows) rows.push(row);
        return;
      }
      const call = pending.get(reply.id!);
      pending.delete(reply.id!);
      const parts = partsOf.get(reply.id!);
      partsOf.delete(reply.id!);
      if (reply.error) call?.reject(rebuilt(reply.error));
      else call?.resolve(parts ? joined(reply.value, parts) : reply.value);
    });
    worker.on("error", (err) => reject(err));
    worker.on("exit", () => {
      // What db/errors.ts reads as "the database cannot be reached" (→ 503), for every call still waiting.
      exited = new Error("PGlite is closed");
      for (const call of pending.values()) call.reject(exited);
      pending.clear();
      reject(exited);
    });
  });
  await ready;

  // Like PGlite on the server's thread, an idle database keeps no process alive (a CLI command ends when
  // its work does); a call in flight does, until its answer arrives.
  worker.unref();
  const settle = () => {
    if (pending.size === 0) worker.unref();
  };
  const call = <T>(op: string, fields: Record<string, unknown> = {}): Promise<T> => {
    if (exited) return Promise.reject(exited);
    const id = ++nextId;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, {
        resolve: (value) => {
          settle();
          resolve(value as T);
        },
        reject: (err) => {
          settle();
          reject(err);
        },
      });
      worker.ref();
      worker.postMessage({ id, op, ...fields });
    });
  };

  return {
    query: (sql, params) => call("query", { sql, params }),
    exec: (sql) => call("exec", { sql }),
    async listen(channel, onNotify) {
      listeners.set(channel, onNotify);
      await call("listen", { channel });
      return async () => {
        listeners.delete(channel);
        await call("unlisten", { channel });
      };
    },
    async dumpDataDir(compression) {
      return new Blob([await call<Uint8Array<ArrayBuffer>>("dump", { compression })]);
    },
    async close() {
      if (exited) return;
      await call("close");
      await worker.terminate();
    },
  };
}
