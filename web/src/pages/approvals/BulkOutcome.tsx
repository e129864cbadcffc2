import { Alert, List, Text } from "@mantine/core";
import type { Deal } from "../../data/deals/queries";
import type { BulkOutcome as Outcome } from "../../lib/bulk";

/** What a bulk approval did: how many were approved, and each failure with the server's message and request id. */
export function BulkOutcome({ outcome, onClose }: { outcome: Outcome<Deal>; onClose: () => void }) {
  const { done, failed } = outcome;
  return (
    <Alert
      color={failed.length > 0 ? "red" : "green"}
      role={failed.length > 0 ? "alert" : "status"}
      title={`Approved ${done.length} deal${done.length === 1 ? "" : "s"}${failed.length > 0 ? `; ${failed.length} failed` : ""}`}
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={onClose}
      data-testid="bulk-outcome"
    >
      {failed.length > 0 && (
        <List size="sm" spacing={4}>
          {failed.map((f) => (
            <List.Item key={f.item.id} data-deal-id={f.item.id}>
              <Text span fw={600} size="sm">
                {f.item.opportunity_name}
              </Text>
              : {f.message}
              {f.requestId && (
                <Text span size="xs">
                  {" "}
                  (request id <code>{f.requestId}</code>)
                </Text>
              )}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
