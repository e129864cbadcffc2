import { Alert, List, Text } from "@mantine/core";
import type { Deal } from "../../data/deals/queries";
import type { BulkOutcome } from "../../lib/bulk";

/** What the last "mark paid" did: how many were paid, and each refusal by deal with the server's message. */
export function PayResult({ outcome }: { outcome: BulkOutcome<Deal> }) {
  return (
    <>
      {outcome.done.length > 0 && (
        <Alert color="green" data-testid="paid-result">
          {outcome.done.length} deal{outcome.done.length === 1 ? "" : "s"} marked paid.
        </Alert>
      )}
      {outcome.failed.length > 0 && (
        <Alert color="red" role="alert" title="Some deals were not marked paid" data-testid="paid-failures">
          <List size="sm" spacing={4}>
            {outcome.failed.map((failure) => (
              <List.Item key={failure.item.id} data-testid="paid-failure" data-deal-id={failure.item.id}>
                <Text size="sm" span fw={600}>
                  {failure.item.opportunity_name}
                </Text>
                : {failure.message}
                {failure.requestId && (
                  <Text size="xs" span c="gray.7">
                    {" "}
                    (request id <code>{failure.requestId}</code>)
                  </Text>
                )}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
    </>
  );
}
