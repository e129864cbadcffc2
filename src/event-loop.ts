/**
 * Letting the event loop turn during long work on the main thread (issue #19, no stall). PGlite runs
 * each statement synchronously and resolves at once, so a request awaiting statement after statement,
 * or looping over thousands of buckets, is one chain of microtasks: no socket is read and no timer fires
 * until it ends (a bulk of 1,000 deals kept /healthz waiting 3 s). Long loops call `turnIfDue()` at each
 * step: it resolves at once while the loop turns on its own, and waits for the next turn
 * (`setImmediate`) once it has not turned for TURN_EVERY_MS.
 */
const TURN_EVERY_MS = 5;
let lastTurn = performance.now();
let turnNoted = false;

function noteTurn(): void {
  lastTurn = performance.now();
  turnNoted = false;
}

let embeddedStatements = false;

/** An embedded database opened: its statements run on this thread and hold the loop while they run. */
export function noteStatementsHoldTheLoop(): void {
  embeddedStatements = true;
}

/** Whether this process's database statements run on its own thread (the embedded database). */
export function statementsHoldTheLoop(): boolean {
  return embeddedStatements;
}

/**
 * How much work one statement should take on: `embedded` where statements hold the loop (each one is a
 * stretch in which no request is answered), else `server`: a server database's statement is socket I/O,
 * and fewer, larger ones cost it less (16 users' bucket entries a statement took an ingest 3.3 s of
 * PostgreSQL time in 3,600 statements).
 */
export function perStatement(embedded: number, server: number): number {
  return embeddedStatements ? embedded : server;
}

/** undefined (nothing to wait for) while the loop turns on its own; else a promise of its next turn. */
export function turnIfDue(): Promise<void> | undefined {
  if (!turnNoted) {
    turnNoted = true;
    setImmediate(noteTurn);
  }
  if (performance.now() - lastTurn < TURN_EVERY_MS) return undefined;
  return new Promise((resolve) => setImmediate(resolve));
}
