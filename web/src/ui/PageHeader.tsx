import { Group, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { usePageTitle } from "./page-title";

/**
 * A page's title (its one h1, and the browser tab's name), what the page is for, and its main action
 * (New person, Create key), if any.
 */
export function PageHeader({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  usePageTitle(title);
  return (
    <Group justify="space-between" align="end" wrap="wrap">
      <div>
        <Title order={1} size="h2">
          {title}
        </Title>
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
