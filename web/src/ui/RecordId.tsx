import { Text } from "@mantine/core";

/**
 * A record's raw id (deal_…, usr_…) as secondary text beside its name: small, and selected whole by one
 * click, for copying into a ticket or an API call. A person reads the name; the id is never the label.
 */
export function RecordId({ id, label }: { id: string; label: string }) {
  return (
    <Text
      span
      ff="monospace"
      fz="xs"
      c="gray.7"
      title={`${label} (click to select, then copy)`}
      data-testid="record-id"
      style={{ userSelect: "all", overflowWrap: "anywhere" }}
    >
      {id}
    </Text>
  );
}
