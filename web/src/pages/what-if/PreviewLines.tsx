import { Alert, Card, Group, Stack, Text, Title } from "@mantine/core";
import type { Schemas } from "../../api/types";
import { money } from "../../lib/format";
import { ExplanationTable } from "../../ui/commission/ExplanationTable";
import { LineHeader } from "../../ui/commission/LineHeader";
import { CapHeadline } from "./CapHeadline";

type Preview = Schemas["CommissionPreview"];

/** The preview's lines, each with its calculation, and its total: the API's numbers only. */
export function PreviewLines({
  preview,
  currency,
  nameOf,
  me,
}: {
  preview: Preview;
  currency: string;
  nameOf: (id: string) => string;
  /** The person asking: their own line's headline says "You". */
  me: string;
}) {
  return (
    <Stack gap="sm" data-testid="preview">
      <Group justify="space-between">
        <Title order={3}>If you close this deal</Title>
        <Text fw={700} data-testid="preview-total">
          {money(preview.total_commission, currency)}
        </Text>
      </Group>
      <CapHeadline lines={preview.lines} currency={currency} who={(id) => (id === me ? "You" : nameOf(id))} />
      {preview.explanation && (
        <Alert color="yellow" title="No plan line">
          {preview.explanation.summary}
        </Alert>
      )}
      {preview.lines.length === 0 && <Text c="gray.7">This deal would earn no commission lines.</Text>}
      {preview.lines.map((line) => (
        // Preview lines have no id: a person earns one line per plan and per SPIFF.
        <Card
          withBorder
          key={`${line.user_id}-${line.kind}-${line.spiff_id ?? line.plan_id}`}
          data-testid="preview-line"
          data-kind={line.kind}
        >
          <LineHeader
            kind={line.kind}
            person={nameOf(line.user_id)}
            period={line.period}
            amount={line.amount}
            currency={currency}
          />
          <ExplanationTable line={line} currency={currency} />
        </Card>
      ))}
    </Stack>
  );
}
