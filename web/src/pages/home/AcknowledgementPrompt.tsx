import { Alert, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { myAcknowledgementsQuery } from "../../data/plan-acknowledgements/queries";
import { AnchorLink } from "../../ui/AnchorLink";

/**
 * A notice on the home while a plan version waits for the person's acknowledgement, linking to it (one)
 * or to the list (several). Nothing when none waits, or when the question cannot be answered now.
 */
export function AcknowledgementPrompt() {
  const pending = useQuery(myAcknowledgementsQuery({ status: "pending", page: 1, per_page: 1 }));
  const total = pending.data?.meta.total ?? 0;
  const first = pending.data?.data[0];
  if (!first || total === 0) return null;
  return (
    <Alert
      color="blue"
      variant="light"
      title={total === 1 ? "A plan to read and acknowledge" : `${total} plans to read and acknowledge`}
      data-testid="ack-prompt"
    >
      <Text size="sm">
        {total === 1
          ? `Your plan "${first.plan_name}" (version ${first.plan_version}) is ready to read. `
          : "Your plans are ready to read. "}
        {total === 1 ? (
          <AnchorLink to="/acknowledgements/$acknowledgementId" params={{ acknowledgementId: first.id }}>
            Read and acknowledge it
          </AnchorLink>
        ) : (
          <AnchorLink to="/acknowledgements">Read and acknowledge them</AnchorLink>
        )}
      </Text>
    </Alert>
  );
}
