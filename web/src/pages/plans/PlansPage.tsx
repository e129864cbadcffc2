import { Group, Pagination, Select, Stack, Text, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { PLAN_STATUSES, type PlanStatus, plansQuery } from "../../data/comp-plans/queries";
import { EmptyState, ErrorState, LoadingState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { PlanList } from "./PlanList";

const PLANS_PAGE_SIZE = 25;

const STATUS_OPTIONS = [
  { value: "any", label: "Any status" },
  ...PLAN_STATUSES.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) })),
];

/** Every comp plan (admins and finance): status, version, period, currency, quota, dates. */
export function PlansPage() {
  const [status, setStatus] = useState<PlanStatus | undefined>(undefined);
  const [page, setPage] = useState(1);
  const plans = useQuery({
    ...plansQuery({ status, page, per_page: PLANS_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  useRenderedMark(plans.isSuccess);

  const body = (() => {
    if (plans.error) return <ErrorState error={plans.error} retry={() => void plans.refetch()} />;
    if (!plans.data) return <LoadingState label="Loading plans" lines={6} />;
    if (plans.data.data.length === 0) {
      return (
        <EmptyState title={status ? `No ${status} plans` : "No plans yet"}>
          {status ? "Pick another status to see the others." : "Plans created through the API appear here."}
        </EmptyState>
      );
    }
    const pages = Math.max(1, Math.ceil(plans.data.meta.total / PLANS_PAGE_SIZE));
    return (
      <Stack>
        <PlanList plans={plans.data.data} />
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {plans.data.meta.total} plan{plans.data.meta.total === 1 ? "" : "s"}
          </Text>
          {pages > 1 && (
            <Pagination
              total={pages}
              value={page}
              onChange={setPage}
              getControlProps={(control) => ({ "aria-label": `${control} page` })}
            />
          )}
        </Group>
      </Stack>
    );
  })();

  return (
    <Stack>
      <Group justify="space-between" align="end" wrap="wrap">
        <div>
          <Title order={2}>Plans</Title>
          <Text size="sm" c="dimmed">
            Comp plans with their current version and terms. Open one for its tiers, assignments and changes.
          </Text>
        </div>
        <Select
          label="Status"
          data={STATUS_OPTIONS}
          value={status ?? "any"}
          onChange={(value) => {
            setStatus(PLAN_STATUSES.find((s) => s === value));
            setPage(1);
          }}
          allowDeselect={false}
          w={160}
        />
      </Group>
      {body}
    </Stack>
  );
}
