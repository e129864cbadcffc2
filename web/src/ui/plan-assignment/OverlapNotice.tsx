import { Alert } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { allAssignmentsQuery, planQuery } from "../../data/comp-plans/queries";
import { isOverlap } from "./assignment-form";
import { findOverlap, overlapSentence, type Span } from "./overlap";

interface Props {
  /** The write's error: shown only when it is the overlap refusal (409). */
  error: unknown;
  /** Whom the assignment was for. */
  userId: string;
  who: string;
  /** The plan being assigned, and the dates asked for. */
  planId: string;
  span: Span;
  /** The assignment being changed (it does not overlap itself). */
  except?: string;
}

/**
 * The API's overlap refusal said as a sentence naming the assignment in the way: the person's
 * assignments are read again (the refusal names ids; a person knows plans by name and dates).
 */
export function OverlapNotice({ error, userId, who, planId, span, except }: Props) {
  const overlap = isOverlap(error);
  const theirs = useQuery({
    ...allAssignmentsQuery({ user_id: userId, per_page: 100 }),
    enabled: overlap,
    staleTime: 0,
  });
  // The refusal names the assignment in the way (a person may hold a standard and an override plan at
  // once, so the first overlapping one need not be it); else the earliest that overlaps.
  const named = overlap ? theirs.data?.data.find((a) => error.message.includes(a.id)) : undefined;
  const other = named ?? (theirs.data && findOverlap(theirs.data.data, span, except));
  const plan = useQuery({ ...planQuery(other?.plan_id ?? ""), enabled: overlap && other !== undefined });
  if (!overlap) return null;
  let sentence = error.message;
  if (other && plan.data) {
    const { name, kind } = plan.data.plan;
    sentence = overlapSentence(who, { ...other, planName: name, kind }, other.plan_id === planId);
  } else if (theirs.isPending || (other && plan.isPending)) {
    sentence = "These dates overlap another assignment: finding which…";
  }
  return (
    <Alert color="red" role="alert" title="These dates overlap another assignment" data-testid="assignment-overlap">
      {sentence}
    </Alert>
  );
}
