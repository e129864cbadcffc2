import { Button, Group, Select, Stack } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi, useRouteContext } from "@tanstack/react-router";
import { useState } from "react";
import { plansQuery } from "../../data/comp-plans/queries";
import { DataTable, listOf } from "../../ui/DataTable";
import { PageHeader } from "../../ui/PageHeader";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { PlanBuilder } from "./PlanBuilder";
import { PLAN_COLUMNS } from "./PlanList";
import { newPlanValues } from "./plan-values";
import { PLAN_STATUSES } from "./schemas";

const route = getRouteApi("/signed-in/plans");
const PLANS_PAGE_SIZE = 25;
const ANY = "any";
const STATUS_OPTIONS = [
  { value: ANY, label: "Any status" },
  ...PLAN_STATUSES.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) })),
];

/** Every comp plan (admins and finance): status, version, period, currency, quota, dates; admins build new ones. */
export function PlansPage() {
  const { session } = useRouteContext({ from: "/signed-in" });
  const isAdmin = session.user.role === "admin";
  const [building, setBuilding] = useState(false);
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { status } = search;
  const plans = useQuery({
    ...plansQuery({ status, page: search.page ?? 1, per_page: PLANS_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  useRenderedMark(plans.isSuccess);

  return (
    <Stack>
      <PageHeader
        title="Plans"
        action={
          <Group align="end" gap="sm">
            <Select
              label="Status"
              data={STATUS_OPTIONS}
              value={status ?? ANY}
              onChange={(value) => void navigate({ search: { status: PLAN_STATUSES.find((s) => s === value) } })}
              allowDeselect={false}
              w={160}
            />
            {isAdmin && <Button onClick={() => setBuilding(true)}>New plan</Button>}
          </Group>
        }
      >
        Comp plans with their current version and terms. Open one for its tiers, assignments and changes.
      </PageHeader>
      <DataTable
        label="Plans"
        minWidth={760}
        table={{ striped: true }}
        columns={PLAN_COLUMNS}
        rowProps={(plan) => ({ "data-plan-id": plan.id })}
        loading="Loading plans"
        empty={{
          title: "No plans yet",
          children: isAdmin ? 'Build the first with "New plan".' : "Plans an admin builds appear here.",
        }}
        filtered={
          status
            ? {
                title: `No ${status} plans`,
                children: "Pick another status to see the others.",
                onClear: () => void navigate({ search: {} }),
              }
            : undefined
        }
        {...listOf(plans, {
          noun: ["plan", "plans"],
          onPage: (page) => void navigate({ search: { ...search, page } }),
        })}
      />
      {building && <PlanBuilder start={newPlanValues()} title="New plan" onClose={() => setBuilding(false)} />}
    </Stack>
  );
}
