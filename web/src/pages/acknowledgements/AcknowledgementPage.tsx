import { Alert, Button, Group, Paper, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, useRouteContext } from "@tanstack/react-router";
import { ApiError } from "../../api/errors";
import { useAcknowledgePlan } from "../../data/plan-acknowledgements/mutations";
import { acknowledgementQuery } from "../../data/plan-acknowledgements/queries";
import { dateTime } from "../../lib/format";
import { ActionError } from "../../ui/ActionError";
import { AnchorLink } from "../../ui/AnchorLink";
import { PageHeader } from "../../ui/PageHeader";
import { ErrorState, LoadingState, NotFoundState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { AcknowledgementReceipt, AcknowledgementStatus, pendingText } from "./receipt";

const route = getRouteApi("/signed-in/acknowledgements/$acknowledgementId");

/**
 * One plan version to read as a printable document, and "I have read and acknowledge this plan" for the
 * person asked; once done, who, when, which version and the document's SHA-256.
 */
export function AcknowledgementPage() {
  const { acknowledgementId } = route.useParams();
  const { session } = useRouteContext({ from: "/signed-in" });
  const detail = useQuery(acknowledgementQuery(acknowledgementId));
  const acknowledge = useAcknowledgePlan(acknowledgementId);
  useRenderedMark(detail.isSuccess);
  if (detail.error) {
    if (detail.error instanceof ApiError && detail.error.status === 404)
      return <NotFoundState what="plan acknowledgement" />;
    return <ErrorState error={detail.error} retry={() => void detail.refetch()} />;
  }
  if (!detail.data) return <LoadingState label="Loading the plan" />;
  const ack = detail.data;
  const own = ack.user_id === session.user.id;
  return (
    <Stack gap="md" maw={900} className="print-document">
      <PageHeader
        title={`${ack.plan_name}, version ${ack.plan_version}`}
        action={
          <Group gap="xs" className="no-print">
            <AnchorLink to="/acknowledgements" size="sm">
              All your plans
            </AnchorLink>
            <Button variant="default" onClick={() => window.print()}>
              Print
            </Button>
          </Group>
        }
      >
        {own ? "Your" : `${ack.user_name}'s`} commission plan, asked on {dateTime(ack.created_at)}.{" "}
        <AcknowledgementStatus status={ack.status} />
      </PageHeader>
      {ack.status === "pending" && (
        <Alert color="blue" variant="light" className="no-print" data-testid="ack-pending">
          {pendingText(ack, own)}
        </Alert>
      )}
      <AcknowledgementReceipt acknowledgement={ack} currentSha256={ack.current_document_sha256} />
      <Paper withBorder p="md" component="section" aria-label="The plan's terms">
        <Text
          component="pre"
          data-testid="plan-document"
          ff="monospace"
          size="sm"
          m={0}
          style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}
        >
          {ack.document}
        </Text>
      </Paper>
      {ack.status === "pending" && own && (
        <Stack gap="xs" className="no-print" align="flex-start">
          <Button
            onClick={() => acknowledge.mutate(ack.current_document_sha256)}
            loading={acknowledge.isPending}
            data-testid="acknowledge"
          >
            I have read and acknowledge this plan
          </Button>
          <Text size="xs" c="dimmed">
            Records your name, the time, the plan version and the SHA-256 of the document above.
          </Text>
          {acknowledge.error && <ActionError error={acknowledge.error} />}
        </Stack>
      )}
    </Stack>
  );
}
