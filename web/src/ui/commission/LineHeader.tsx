import { Badge, Group, Text } from "@mantine/core";
import { money } from "../../lib/format";
import { LINE_KIND_LABELS } from "../labels";

/** A commission line's heading, on the deal page and in What-if: kind, person, status, period, amount. */
export function LineHeader(props: {
  kind: keyof typeof LINE_KIND_LABELS;
  person: React.ReactNode;
  status?: string;
  period: string;
  amount: number;
  currency: string;
}) {
  const { kind, person, status, period, amount, currency } = props;
  return (
    <Group justify="space-between" mb="xs" wrap="wrap">
      <Group gap="xs">
        <Badge color="dark.6">{LINE_KIND_LABELS[kind]}</Badge>
        <Text size="sm">{person}</Text>
        {status && <Badge color={status === "void" ? "gray.7" : "blue.9"}>{status}</Badge>}
        <Text size="xs" c="gray.7">
          {period}
        </Text>
      </Group>
      <Text fw={700} data-testid="line-amount">
        {money(amount, currency)}
      </Text>
    </Group>
  );
}
