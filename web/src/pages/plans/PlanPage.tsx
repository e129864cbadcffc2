import { Group, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, useRouteContext } from "@tanstack/react-router";
import { ApiError } from "../../api/errors";
import { planQuery } from "../../data/comp-plans/queries";
import { AnchorLink } from "../../ui/AnchorLink";
import { ErrorState, LoadingState, NotFoundState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { PlanAssignments } from "./PlanAssignments";
import { PlanChange } from "./PlanChange";
import { PlanStatusBadge } from "./PlanStatusBadge";
import { PlanTerms } from "./PlanTerms";
import { PlanVersions } from "./PlanVersions";

const route = getRouteApi("/signed-in/plans/$planId");

/** One plan: its terms, versions and assignments; admins change it after seeing the impact, finance previews. */
export function PlanPage() {
  const { session } = useRouteContext({ from: "/signed-in" });
  const { planId } = route.useParams();
  const loaded = useQuery(planQuery(planId));
  const isAdmin = session.user.role === "admin";
  useRenderedMark(loaded.isSuccess);

  if (loaded.error instanceof ApiError && loaded.error.status === 404) return <NotFoundState what="plan" />;
  if (loaded.error) return <ErrorState error={loaded.error} retry={() => void loaded.refetch()} />;
  if (!loaded.data) return <LoadingState label="Loading the plan" lines={8} />;
  const { plan } = loaded.data;

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <AnchorLink to="/plans" size="sm" w="max-content">
          ← Plans
        </AnchorLink>
        <Group gap="sm" wrap="wrap">
          <Title order={1} size="h2">
            {plan.name}
          </Title>
          <PlanStatusBadge status={plan.status} />
          <Text c="dimmed" data-testid="plan-version">
            version {plan.version}
          </Text>
        </Group>
        {plan.description && <Text c="dimmed">{plan.description}</Text>}
      </Stack>
      <PlanTerms plan={plan} />
      <PlanChange key={plan.id} base={loaded.data} canApply={isAdmin} />
      <PlanAssignments plan={plan} canEdit={isAdmin} />
      <PlanVersions plan={plan} />
    </Stack>
  );
}
