import { Alert, Button, Card, Code, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useNavigate, useParams } from "@tanstack/react-router";
import { useState } from "react";
import { ApiError } from "../../api/errors";
import { useSendTest, useUpdateSubscription } from "../../data/webhooks/mutations";
import { type Subscription, subscriptionQuery } from "../../data/webhooks/queries";
import { dateTime } from "../../lib/format";
import { ActionError } from "../../ui/ActionError";
import { AnchorLink } from "../../ui/AnchorLink";
import { ErrorState, LoadingState, NotFoundState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { DeleteSubscriptionDialog } from "./DeleteSubscriptionDialog";
import { DeliveryLog } from "./DeliveryLog";
import { EditSubscriptionDialog } from "./EditSubscriptionDialog";
import { RotateSecretDialog } from "./RotateSecretDialog";
import { StatusBadge } from "./StatusBadge";
import { eventsText } from "./SubscriptionTable";

/** One webhook subscription: its settings and actions, and its delivery log. */
export function WebhookPage() {
  const { subscriptionId } = useParams({ from: "/signed-in/webhooks/$subscriptionId" });
  const subscription = useQuery(subscriptionQuery(subscriptionId));
  useRenderedMark(subscription.isSuccess);
  if (subscription.isPending) return <LoadingState label="Loading the subscription" lines={6} />;
  if (subscription.isError) {
    if (subscription.error instanceof ApiError && subscription.error.status === 404) {
      return <NotFoundState what="webhook subscription" />;
    }
    return <ErrorState error={subscription.error} retry={() => void subscription.refetch()} />;
  }
  return <SubscriptionView subscription={subscription.data} />;
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="gray.7" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: "anywhere" }}>
        {children}
      </Text>
    </div>
  );
}

type Dialog = "edit" | "rotate" | "delete" | null;

function SubscriptionView({ subscription }: { subscription: Subscription }) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const navigate = useNavigate();
  const test = useSendTest(subscription.id);
  const update = useUpdateSubscription(subscription.id);
  const active = subscription.status === "active";
  const close = () => setDialog(null);

  return (
    <Stack gap="lg" maw={1280}>
      <Stack gap={4}>
        <AnchorLink to="/webhooks" size="sm">
          ← Webhooks
        </AnchorLink>
        <Group justify="space-between" align="flex-start">
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Title order={1} size="h2" style={{ overflowWrap: "anywhere" }}>
              {subscription.url}
            </Title>
            <Group gap="xs">
              <StatusBadge status={subscription.status} />
              <Text size="sm" c="gray.7">
                {subscription.id}
              </Text>
            </Group>
          </Stack>
          <Group gap="xs">
            {active && (
              <Button onClick={() => test.mutate()} loading={test.isPending}>
                Send test
              </Button>
            )}
            <Button variant="light" onClick={() => setDialog("edit")}>
              Edit
            </Button>
            <Button variant="light" onClick={() => setDialog("rotate")}>
              Rotate secret
            </Button>
            <Button
              variant="light"
              loading={update.isPending}
              onClick={() => update.mutate({ status: active ? "disabled" : "active" })}
            >
              {active ? "Disable" : "Enable"}
            </Button>
            <Button variant="light" color="red" onClick={() => setDialog("delete")}>
              Delete
            </Button>
          </Group>
        </Group>
      </Stack>
      {subscription.disabled_reason && (
        <Alert color="red" title="Disabled by the service">
          {subscription.disabled_reason}
        </Alert>
      )}
      {test.isSuccess && (
        <Alert color="teal" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => test.reset()}>
          Test event <Code>{test.data.id}</Code> queued: its delivery shows below.
        </Alert>
      )}
      <ActionError error={test.error ?? update.error} />
      <Card withBorder>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
          <Fact label="Events">{eventsText(subscription.events)}</Fact>
          <Fact label="Description">{subscription.description ?? "—"}</Fact>
          <Fact label="Signing secret">
            <Code>{subscription.secret_hint}</Code>
            {subscription.previous_secret_expires_at && (
              <Text size="xs" c="gray.7">
                The previous secret also signs until {dateTime(subscription.previous_secret_expires_at)}
              </Text>
            )}
          </Fact>
          <Fact label="Created">{dateTime(subscription.created_at)}</Fact>
        </SimpleGrid>
      </Card>
      <DeliveryLog subscriptionId={subscription.id} active={active} />
      <EditSubscriptionDialog subscription={subscription} opened={dialog === "edit"} onClose={close} />
      <RotateSecretDialog subscription={subscription} opened={dialog === "rotate"} onClose={close} />
      <DeleteSubscriptionDialog
        subscription={subscription}
        opened={dialog === "delete"}
        onClose={close}
        onDeleted={() => void navigate({ to: "/webhooks" })}
      />
    </Stack>
  );
}
