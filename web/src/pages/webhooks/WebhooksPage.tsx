import { Button, Stack } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { useState } from "react";
import { subscriptionsQuery } from "../../data/webhooks/queries";
import { DataTable, listOf } from "../../ui/DataTable";
import { PageHeader } from "../../ui/PageHeader";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { CreateSubscriptionDialog } from "./CreateSubscriptionDialog";
import { SUBSCRIPTION_COLUMNS } from "./SubscriptionTable";

const route = getRouteApi("/signed-in/webhooks");
const PAGE_SIZE = 25;

/** Webhook subscriptions (admin): the list, and a new one with its signing secret shown once. */
export function WebhooksPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const subscriptions = useQuery({
    ...subscriptionsQuery({ page: search.page ?? 1, per_page: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const [creating, setCreating] = useState(false);
  useRenderedMark(subscriptions.isSuccess);

  return (
    <Stack gap="md" maw={1280}>
      <PageHeader title="Webhooks" action={<Button onClick={() => setCreating(true)}>New subscription</Button>}>
        Endpoints that receive the service's events, signed with their own secret.
      </PageHeader>
      <DataTable
        label="Webhook subscriptions"
        testId="subscriptions-table"
        minWidth={900}
        table={{ striped: true, verticalSpacing: "sm" }}
        columns={SUBSCRIPTION_COLUMNS}
        rowProps={(s) => ({ "data-subscription-id": s.id })}
        loading="Loading webhook subscriptions"
        empty={{
          title: "No webhook subscriptions",
          children: "Add an endpoint to hear about approvals, payments and disputes as they happen.",
        }}
        {...listOf(subscriptions, {
          noun: ["subscription", "subscriptions"],
          onPage: (page) => void navigate({ search: { page } }),
        })}
      />
      <CreateSubscriptionDialog
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(subscriptionId) => void navigate({ to: "/webhooks/$subscriptionId", params: { subscriptionId } })}
      />
    </Stack>
  );
}
