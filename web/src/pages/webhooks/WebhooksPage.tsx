import { Button, Group, Pagination, Stack, Text, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { subscriptionsQuery } from "../../data/webhooks/queries";
import { EmptyState, ErrorState, LoadingState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { CreateSubscriptionDialog } from "./CreateSubscriptionDialog";
import { SubscriptionTable } from "./SubscriptionTable";

const PAGE_SIZE = 25;

/** Webhook subscriptions (admin): the list, and a new one with its signing secret shown once. */
export function WebhooksPage() {
  const [page, setPage] = useState(1);
  const subscriptions = useQuery({
    ...subscriptionsQuery({ page, per_page: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  useRenderedMark(subscriptions.isSuccess);
  const total = subscriptions.data?.meta.total ?? 0;

  return (
    <Stack gap="md" maw={1280}>
      <Group justify="space-between" align="end">
        <div>
          <Title order={2}>Webhooks</Title>
          <Text size="sm" c="gray.7">
            Endpoints that receive the service's events, signed with their own secret.
          </Text>
        </div>
        <Button onClick={() => setCreating(true)}>New subscription</Button>
      </Group>
      {subscriptions.isPending && <LoadingState label="Loading webhook subscriptions" />}
      {subscriptions.isError && <ErrorState error={subscriptions.error} retry={() => void subscriptions.refetch()} />}
      {subscriptions.isSuccess && total === 0 && (
        <EmptyState title="No webhook subscriptions">
          Add an endpoint to hear about approvals, payments and disputes as they happen.
        </EmptyState>
      )}
      {subscriptions.isSuccess && total > 0 && (
        <>
          <SubscriptionTable subscriptions={subscriptions.data.data} />
          <Group justify="space-between">
            <Text size="sm" c="gray.7">
              {total} subscription{total === 1 ? "" : "s"}
            </Text>
            {total > PAGE_SIZE && (
              <Pagination
                total={Math.ceil(total / PAGE_SIZE)}
                value={page}
                onChange={setPage}
                size="sm"
                aria-label="Subscription pages"
              />
            )}
          </Group>
        </>
      )}
      <CreateSubscriptionDialog
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(subscriptionId) => void navigate({ to: "/webhooks/$subscriptionId", params: { subscriptionId } })}
      />
    </Stack>
  );
}
