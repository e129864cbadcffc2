import { Card, Text } from "@mantine/core";
import type { ReactNode } from "react";

/** A count on a home (what waits for someone): its label, the number, and where to act on it. */
export function CountCard({
  label,
  count,
  testId,
  children,
}: {
  label: string;
  count: number;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Card withBorder data-testid={testId}>
      <Text size="sm" c="gray.7">
        {label}
      </Text>
      <Text fw={700} fz="xl" data-testid="count">
        {count}
      </Text>
      {children}
    </Card>
  );
}
