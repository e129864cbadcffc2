import { Table } from "@mantine/core";
import type { ReactNode } from "react";

/**
 * A table that scrolls sideways on a narrow screen. The scrolling box is a named, focusable region,
 * so a keyboard can scroll it too (axe: scrollable-region-focusable). It is the containing block of
 * what the table positions absolutely (a visually hidden "Actions" header, a checkbox's input), which
 * would otherwise widen the page itself past a phone's width.
 */
export function ScrollTable({ minWidth, label, children }: { minWidth: number; label: string; children: ReactNode }) {
  return (
    <Table.ScrollContainer
      minWidth={minWidth}
      type="native"
      tabIndex={0}
      role="region"
      aria-label={label}
      pos="relative"
    >
      {children}
    </Table.ScrollContainer>
  );
}
