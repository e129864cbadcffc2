import type { Tx } from "../../context.js";

/**
 * Adjustment lines written beside locked lines (retroactive corrections) reach the commission-cost
 * accounting (API.md §17) through this port: accounting/ sits above commissions/ and fills it when it
 * loads. Without a handler nothing is booked.
 */
export type LinesAddedHandler = (tx: Tx, dealIds: readonly string[]) => Promise<void>;

let handler: LinesAddedHandler | undefined;

/** Sets the handler and returns the one it replaces. */
export function setLinesAddedHandler(next: LinesAddedHandler | undefined): LinesAddedHandler | undefined {
  const previous = handler;
  handler = next;
  return previous;
}

/** Tells the accounting which deals gained adjustment lines, in the caller's transaction. */
export async function linesAdded(tx: Tx, dealIds: readonly string[]): Promise<void> {
  if (handler) await handler(tx, dealIds);
}
