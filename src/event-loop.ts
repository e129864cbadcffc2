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

/** undefined (nothing to wait for) while the loop turns on its own; else a promise of its next turn. */
export function turnIfDue(): Promise<void> | undefined {
  if (!turnNoted) {
    turnNoted = true;
    setImmediate(noteTurn);
  }
  if (performance.now() - lastTurn < TURN_EVERY_MS) return undefined;
  return new Promise((resolve) => setImmediate(resolve));
}
