// Imports with their .js name: the server's unit tests (test/console) type-check this file with Node's resolution.
import { differenceOfMoney } from "../../lib/money.js";

/** ResolveDisputeBody.outcome (mutations.ts passes it to the API, so a change to the enum fails the build there). */
export type Outcome = "approved" | "partially_approved" | "denied";

/**
 * The adjustment a resolution will write (API.md §4 Disputes, §20 b): the accepted total − the current
 * one (the deal's, for its owner; a rep's or manager's dispute: their own lines', for them); none when the outcome is denied, when no total is accepted (approved
 * without an amount or an expected amount), or when the accepted total equals the current one.
 */
export function pendingAdjustment(
  outcome: Outcome | null,
  amount: number | null,
  expected: number | null,
  currentTotal: number,
): { accepted: number; adjustment: number } | null {
  if (outcome === null || outcome === "denied") return null;
  const accepted = amount ?? (outcome === "approved" ? expected : null);
  if (accepted === null) return null;
  const adjustment = differenceOfMoney(accepted, currentTotal);
  return adjustment === 0 ? null : { accepted, adjustment };
}
