import { ApiError } from "../../api/errors";
import type { Draw } from "../../data/draws/queries";
import { date, money } from "../../lib/format";

export const KIND_LABELS: Record<Draw["kind"], string> = {
  recoverable: "Recoverable",
  non_recoverable: "Non-recoverable",
};

export const ENTRY_LABELS: Record<Draw["entries"][number]["type"], string> = {
  advance: "Advance",
  recovery: "Recovery",
  forgiveness: "Forgiveness",
};

/** "2,000.00 USD a month, Jan 1, 2026 – Jun 30, 2026". */
export function guaranteeInWords(draw: Draw): string {
  return `${money(draw.amount, draw.currency)} a ${draw.period}, ${date(draw.starts_on)} – ${date(draw.ends_on)}`;
}

/**
 * A refused draw write in words, by the API's code (API.md §18): the API's own message follows, so
 * nothing it said is lost. Null when the error is a 422 whose details a form field shows.
 */
export function drawErrorInWords(error: unknown, action: "create" | "end" | "forgive"): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 409 && error.code === "conflict") {
    if (action === "create") return `This overlaps another draw of the person in this currency (${error.message}).`;
    if (action === "end")
      return `A payout run already settled a period ending after that date: end it on or after that period's last day (${error.message}).`;
  }
  if (error.status === 422 && action === "forgive") return `Nothing was forgiven: ${error.message}`;
  if (error.status === 403) return `Only finance and admins change draws (${error.message}).`;
  return null;
}
