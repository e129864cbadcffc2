import { Card, Stack, Text } from "@mantine/core";
import type { Schemas } from "../../../api/client";
import { ExplanationTable } from "./ExplanationTable";
import { LineHeader } from "./LineHeader";

type Commission = Schemas["Commission"];

/**
 * A deal's commission lines, each with its heading and its calculation: the deal page's section, and
 * what other pages show of a deal (the approval queue's drawer) through the feature's index.
 */
export function DealLines(props: { lines: Commission[]; currency: string; nameOf: (userId: string) => string }) {
  const { lines, currency, nameOf } = props;
  const lineIds = new Set(lines.map((line) => line.id));
  const lineAnchor = (id: string) => (lineIds.has(id) ? `line-${id}` : undefined);
  if (lines.length === 0) return <Text c="gray.7">This deal has no lines you can see.</Text>;
  return (
    <Stack gap="sm">
      {lines.map((line) => (
        <Card
          key={line.id}
          withBorder
          id={`line-${line.id}`}
          data-testid="commission-line"
          data-line-id={line.id}
          data-kind={line.kind}
        >
          <LineHeader
            kind={line.kind}
            person={nameOf(line.user_id)}
            status={line.status}
            period={line.period}
            amount={line.amount}
            currency={currency}
          />
          <ExplanationTable line={line} currency={currency} lineAnchor={lineAnchor} />
        </Card>
      ))}
    </Stack>
  );
}
