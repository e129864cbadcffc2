import type { Ctx, Tx } from "../context.js";

/**
 * A change of who reported to whom (API.md §16) reaches the override lines through this port: users/
 * sits below commissions/, which fills it when it loads (`commissions/index.ts`). Without a handler (a
 * tool that loads only users/) a change recalculates nothing.
 */
export interface ReportingChange {
  /** The user whose line moved: their credits and those of everyone ever below them can change hands. */
  user_id: string;
  /** Inclusive close-date ranges whose managers changed (`to` null = open). */
  ranges: { from: string; to: string | null }[];
}

export type ReportingChangeHandler = (tx: Tx, ctx: Ctx, change: ReportingChange) => Promise<{ jobId: string | null }>;

let handler: ReportingChangeHandler | undefined;

/** Sets the handler and returns the one it replaces (tests put it back). */
export function setReportingChangeHandler(
  next: ReportingChangeHandler | undefined,
): ReportingChangeHandler | undefined {
  const previous = handler;
  handler = next;
  return previous;
}

/** Recalculates the pending override lines a reporting change reaches, in the caller's transaction. */
export async function reportingChanged(tx: Tx, ctx: Ctx, change: ReportingChange): Promise<{ jobId: string | null }> {
  return handler ? handler(tx, ctx, change) : { jobId: null };
}
