// The embedded database's own thread (pglite-thread.ts): PGlite runs each statement synchronously inside
// its WASM module, so on the server's thread a 40 ms statement was 40 ms in which no request was read.
// Here it runs beside the server: requests, timers and sockets keep going while a statement runs.
// Plain JavaScript (copied to dist/ by the build) so that Node runs it as it is, from src/ in the tests.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";

const asText = (value) => value;
/**
 * A reply's rows go in messages of at most this many: the server's thread decodes each message in one
 * go (23,000 bucket entries as one message: 42–120 ms in which it answered nothing), and between two
 * messages it answers others.
 */
const ROWS_PER_MESSAGE = 2000;
const { dataDir, startParams, textTypes, loadDataDir, wasmModule } = workerData;

/** A thrown error as plain data: its message, name and every field (code, constraint, detail, …). */
function plain(err) {
  if (!(err instanceof Error)) return { message: String(err) };
  return { ...err, name: err.name, message: err.message, stack: err.stack };
}

const listeners = new Map();

const ops = {
  query: (pg, { sql, params }) => pg.query(sql, params),
  exec: (pg, { sql }) => pg.exec(sql),
  async listen(pg, { channel }) {
    const unlisten = await pg.listen(channel, (payload) => parentPort.postMessage({ notify: channel, payload }));
    listeners.set(channel, unlisten);
  },
  async unlisten(_pg, { channel }) {
    await listeners.get(channel)?.();
    listeners.delete(channel);
  },
  async dump(pg, { compression }) {
    return new Uint8Array(await (await pg.dumpDataDir(compression)).arrayBuffer());
  },
  close: (pg) => pg.close(),
};

/** A result's rows beyond ROWS_PER_MESSAGE go ahead in parts ({ id, result, rows }); what is left to send. */
function rowsInParts(id, result, index) {
  if (!result || !Array.isArray(result.rows) || result.rows.length <= ROWS_PER_MESSAGE) return result;
  for (let i = 0; i < result.rows.length; i += ROWS_PER_MESSAGE) {
    parentPort.postMessage({ id, result: index, rows: result.rows.slice(i, i + ROWS_PER_MESSAGE) });
  }
  return { ...result, rows: [] };
}

/** `query` answers one result, `exec` a list (index 0, 1, …; a query's is -1). */
function sentInParts(id, value) {
  return Array.isArray(value) ? value.map((result, i) => rowsInParts(id, result, i)) : rowsInParts(id, value, -1);
}

let pglite;
try {
  pglite = await PGlite.create(dataDir, {
    startParams,
    parsers: Object.fromEntries(textTypes.map((oid) => [oid, asText])),
    pgliteWasmModule: wasmModule,
    ...(loadDataDir ? { loadDataDir: new Blob([loadDataDir]) } : {}),
  });
  parentPort.postMessage({ ready: true });
} catch (err) {
  parentPort.postMessage({ ready: false, error: plain(err) });
}

// One message at a time, in order: PGlite has one session, and the pool above hands it to one
// transaction at a time. A notification is posted before the result of the statement that caused it.
let queue = Promise.resolve();
parentPort.on("message", (message) => {
  queue = queue.then(async () => {
    try {
      const value = await ops[message.op](pglite, message);
      parentPort.postMessage({ id: message.id, value: sentInParts(message.id, value) });
    } catch (err) {
      parentPort.postMessage({ id: message.id, error: plain(err) });
    }
    if (message.op === "close") parentPort.close();
  });
});
