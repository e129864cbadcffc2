import { Group, Progress, Text } from "@mantine/core";
import { type ReactNode, type RefObject, useEffect, useRef, useState } from "react";
import { money } from "../lib/format";
import { totalsByCurrency } from "../lib/money";

/** The selected deals' commission, exact (lib/money.ts), one sum per line currency: "$1,234.57 + €50.00". */
export function selectionTotal(
  deals: readonly { commission_totals: { currency: string; amount: number }[] }[],
): string {
  const totals = totalsByCurrency(deals.flatMap((d) => d.commission_totals));
  return totals.length > 0 ? totals.map(([currency, total]) => money(total, currency)).join(" + ") : money(0);
}

/**
 * A bulk action's bar: what is selected (the count and the exact total, read out as it changes) and
 * the actions on it. The count is in the bar and in the confirmation; the page clears the selection on
 * success and lists each failure (lib/bulk.ts).
 */
export function BulkBar(props: { summary: ReactNode; summaryId: string; actions: ReactNode; testId?: string }) {
  return (
    <Group justify="space-between" wrap="wrap" gap="sm" data-testid={props.testId}>
      <Group gap="sm">{props.actions}</Group>
      <Text size="sm" aria-live="polite" data-testid={props.summaryId}>
        {props.summary}
      </Text>
    </Group>
  );
}

/** How a bulk run reports its progress to the bar alone (re-rendering a page of 100 rows per request slowed the run). */
export function useProgress(): {
  report: (finished: number) => void;
  listener: RefObject<((n: number) => void) | undefined>;
} {
  const listener = useRef<(finished: number) => void>(undefined);
  return { report: (finished) => listener.current?.(finished), listener };
}

/** The run's progress bar: "Approved 12 of 40". */
export function BulkProgress(props: {
  of: number;
  verb: string;
  listener: RefObject<((n: number) => void) | undefined>;
}) {
  const { of, verb, listener } = props;
  const [finished, setFinished] = useState(0);
  useEffect(() => {
    listener.current = setFinished;
    return () => {
      listener.current = undefined;
    };
  }, [listener]);
  return <Progress value={(finished / of) * 100} aria-label={`${verb} ${finished} of ${of}`} />;
}
