import { Badge, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { PlanImpactLine } from "../../data/comp-plans/mutations";
import { date, money, signedMoney } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import { type ExplainedLine, ExplanationTable } from "../../ui/commission/ExplanationTable";
import { RecordId } from "../../ui/RecordId";

type Explanation = PlanImpactLine["explanation_before"] | PlanImpactLine["explanation_after"];

/** A line's explanation as the deal page draws it, or the API's sentence when it would earn nothing. */
function Side({
  kind,
  explanation,
  amount,
  currency,
}: {
  kind: PlanImpactLine["kind"];
  explanation: Explanation;
  amount: number;
  currency: string;
}) {
  if (explanation === null) return <Text size="sm">No line.</Text>;
  if (!("unrounded" in explanation)) {
    return (
      <Text size="sm" data-testid="explanation-summary">
        {explanation.summary}
      </Text>
    );
  }
  // The explanation's own rounded amount where it states one (a locked line's `before` also counts earlier corrections).
  const own = typeof explanation.amount === "number" ? explanation.amount : amount;
  const line = { kind, amount: own, explanation } as ExplainedLine;
  return <ExplanationTable line={line} currency={currency} />;
}

/** The largest line changes (the API orders them by |delta|), each with how it is computed now and after. */
export function ImpactLines(props: {
  lines: PlanImpactLine[];
  total: number;
  currency: string;
  names: Map<string, string>;
}) {
  const { lines, total, currency, names } = props;
  return (
    <Stack gap="sm">
      <Title order={4} size="h5">
        Largest line changes
      </Title>
      <Text size="sm" c="dimmed">
        {lines.length < total
          ? `The ${lines.length} largest of ${total} changed lines.`
          : `All ${total} changed lines.`}
      </Text>
      {lines.map((line) => (
        <Card
          key={line.line_id ?? `${line.kind}-${line.deal_id}-${line.user_id}-${line.period}`}
          withBorder
          padding="sm"
          data-testid="impact-line"
          data-deal-id={line.deal_id}
          data-user-id={line.user_id}
        >
          <Group justify="space-between" wrap="wrap" mb="xs">
            <Group gap="xs" wrap="wrap">
              <AnchorLink
                to="/deals/$dealId"
                params={{ dealId: line.deal_id }}
                fw={600}
                fz="sm"
                data-testid="impact-line-deal"
              >
                {line.opportunity_name}
              </AnchorLink>
              <Text size="xs" c="gray.7" data-testid="impact-line-close-date">
                closed {date(line.close_date)}
              </Text>
              <Text size="sm" data-testid="impact-line-person">
                {names.get(line.user_id) ?? line.user_id}
              </Text>
              <Badge variant="light" color={line.locked ? "blue.9" : "gray.7"}>
                {line.status}
                {line.locked ? " (locked)" : ""}
              </Badge>
              <Text size="xs" c="gray.7">
                {line.period}
              </Text>
            </Group>
            <Text fw={700} data-testid="impact-line-change">
              {money(line.before, currency)} → {money(line.after, currency)} ({signedMoney(line.delta, currency)})
            </Text>
          </Group>
          <RecordId id={line.deal_id} label="The deal's id" />
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" mt="xs">
            <Stack gap={4} data-testid="explanation-before">
              <Text size="sm" fw={600}>
                Now
              </Text>
              <Side kind={line.kind} explanation={line.explanation_before} amount={line.before} currency={currency} />
            </Stack>
            <Stack gap={4} data-testid="explanation-after">
              <Text size="sm" fw={600}>
                After the change
              </Text>
              <Side kind={line.kind} explanation={line.explanation_after} amount={line.after} currency={currency} />
            </Stack>
          </SimpleGrid>
        </Card>
      ))}
    </Stack>
  );
}
