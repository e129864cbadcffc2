/**
 * Letting the event loop turn during long work on the main thread (issue #19, no stall). A request
 * looping over thousands of buckets, lines or deals is one chain of microtasks: no socket is read and no
 * timer fires until it ends (validating, pricing and writing a bulk of 1,000 deals held it 25–70 ms at a
 * time). Long loops call `turnIfDue()` at each step: it resolves at once while the loop turns on its
 * own, and waits for the next turn (`setImmediate`) once it has not turned for TURN_EVERY_MS (at 5 ms,
 * a small GET beside a bulk on PostgreSQL waited p99 58–89 ms; at 2 ms, 48–54 ms).
 */
const TURN_EVERY_MS = 2;
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

/**
 * `items.map(fn)` that lets the loop turn (`turnIfDue`) between items: for maps over a bulk's or a
 * recalculation's thousands of rows, each a few microseconds, which together hold the loop for tens of
 * milliseconds (a request's 1,000 audit rows or line events: 25–70 ms).
 */
export async function mapTurning<T, R>(items: readonly T[], fn: (item: T, index: number) => R): Promise<R[]> {
  const out = new Array<R>(items.length);
  for (let i = 0; i < items.length; i++) {
    out[i] = fn(items[i]!, i);
    const turn = turnIfDue();
    if (turn) await turn;
  }
  return out;
}
