import { Button, Group } from "@mantine/core";
import type { FormEvent, ReactNode } from "react";

/** A row of filter fields applied together on "Apply" (and Enter), with "Clear" to drop them all. */
export function FilterBar({
  label,
  children,
  onApply,
  onClear,
}: {
  label: string;
  children: ReactNode;
  onApply: () => void;
  onClear: () => void;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply();
  };
  return (
    <form onSubmit={submit} aria-label={label}>
      <Group align="end" gap="sm">
        {children}
        <Button type="submit" variant="light">
          Apply
        </Button>
        <Button variant="subtle" onClick={onClear}>
          Clear
        </Button>
      </Group>
    </form>
  );
}
