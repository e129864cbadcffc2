import { Badge } from "@mantine/core";

const COLORS: Record<string, string> = {
  active: "teal.9",
  disabled: "gray.7",
  succeeded: "teal.9",
  pending: "blue.9",
  failed: "red.9",
};

/** A subscription's or a delivery's status, as the API names it. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={COLORS[status] ?? "gray.7"} style={{ minWidth: "max-content" }}>
      {status}
    </Badge>
  );
}
