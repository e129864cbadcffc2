import { Alert, Badge, Code, Stack, Text } from "@mantine/core";
import type { PlanAcknowledgement } from "../../data/plan-acknowledgements/queries";
import { dateTime } from "../../lib/format";

/** Pending or acknowledged, as a badge (the word, not the colour alone, says which). */
export function AcknowledgementStatus({ status }: { status: PlanAcknowledgement["status"] }) {
  return status === "pending" ? (
    <Badge component="span" color="orange.8" variant="dot" data-testid="ack-status">
      To acknowledge
    </Badge>
  ) : (
    <Badge component="span" color="green.8" variant="dot" data-testid="ack-status">
      Acknowledged
    </Badge>
  );
}

/**
 * What an acknowledgement recorded: who, when, which plan version, and the SHA-256 of the document as
 * they read it. `currentSha256`: the document as it reads now, when it differs.
 */
export function AcknowledgementReceipt({
  acknowledgement: ack,
  currentSha256,
}: {
  acknowledgement: PlanAcknowledgement;
  currentSha256?: string;
}) {
  if (ack.status !== "acknowledged" || !ack.acknowledged_at || !ack.document_sha256) return null;
  return (
    <Alert color="green" variant="light" title="Acknowledged" data-testid="ack-receipt">
      <Stack gap={4}>
        <Text size="sm">
          <span data-testid="ack-who">{ack.user_name}</span> acknowledged{" "}
          <span data-testid="ack-plan">
            {ack.plan_name}, version {ack.plan_version}
          </span>{" "}
          on <span data-testid="ack-when">{dateTime(ack.acknowledged_at)}</span>.
        </Text>
        <Text size="sm">
          SHA-256 of the document read:{" "}
          <Code data-testid="ack-sha256" style={{ overflowWrap: "anywhere" }}>
            {ack.document_sha256}
          </Code>
        </Text>
        {currentSha256 && currentSha256 !== ack.document_sha256 && (
          <Text size="sm" fw={500}>
            The plan's document reads differently now (SHA-256 {currentSha256}).
          </Text>
        )}
      </Stack>
    </Alert>
  );
}

/** What the page says of a request still pending: read, then acknowledge; pay does not wait for it. */
export function pendingText(ack: PlanAcknowledgement, ownRequest: boolean): string {
  if (!ownRequest) return `${ack.user_name} has not acknowledged this plan version yet.`;
  return "Read the plan below, then acknowledge that you received it. Acknowledging records that you read this version; it changes nothing in how your commissions are calculated or paid.";
}
