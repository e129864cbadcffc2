import { Group, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** A page's title, what the page is for, and its main action (New person, Create key), if any. */
export function PageHeader({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <Group justify="space-between" align="end" wrap="wrap">
      <div>
        <Title order={2}>{title}</Title>
        {children && (
          <Text size="sm" c="dimmed">
            {children}
          </Text>
        )}
      </div>
      {action}
    </Group>
  );
}
