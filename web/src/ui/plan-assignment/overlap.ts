import { date } from "../../lib/format";

/** An assignment's days: both ends inclusive, open-ended when `effective_to` is null. */
export interface Span {
  effective_from: string;
  effective_to: string | null;
}

/** Whether two spans share a day (API.md §16: a person has at most one assignment per plan kind in force on any date). */
export function overlaps(a: Span, b: Span): boolean {
  return (
    (a.effective_to === null || a.effective_to >= b.effective_from) &&
    (b.effective_to === null || b.effective_to >= a.effective_from)
  );
}

/** The person's assignment the span overlaps, the earliest first (the one the API names); `except`: the one being changed. */
export function findOverlap<A extends Span & { id: string }>(
  assignments: A[],
  span: Span,
  except?: string,
): A | undefined {
  return assignments
    .filter((a) => a.id !== except && overlaps(a, span))
    .sort((a, b) => (a.effective_from < b.effective_from ? -1 : a.effective_from > b.effective_from ? 1 : 0))[0];
}

/** "Jan 1, 2026 to Mar 31, 2026" or "Jan 1, 2026 with no end date". */
export function spanInWords(span: Span): string {
  return `${date(span.effective_from)} ${span.effective_to === null ? "with no end date" : `to ${date(span.effective_to)}`}`;
}

/**
 * The overlap refusal (409) as a sentence naming the assignment in the way: who, which plan, its dates,
 * and what to do. `samePlan`: it is an assignment of the plan being assigned.
 */
export function overlapSentence(
  who: string,
  other: Span & { planName: string; kind?: "standard" | "override" },
  samePlan: boolean,
): string {
  if (samePlan) {
    return `${who} is already on this plan from ${spanInWords(other)}. Change that assignment's dates instead, or pick dates outside it.`;
  }
  const rule = other.kind === "override" ? "one override plan at a time" : "one plan at a time";
  return `${who} is already on ${other.planName} from ${spanInWords(other)}, and a person has ${rule}. End that assignment first, or pick dates outside it.`;
}
