import { Button, Group, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, useRouteContext } from "@tanstack/react-router";
import { useState } from "react";
import { ApiError } from "../../api/errors";
import { planQuery } from "../../data/comp-plans/queries";
import { AnchorLink } from "../../ui/AnchorLink";
import { ErrorState, LoadingState, NotFoundState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { PlanAssignments } from "./PlanAssignments";
import { PlanBuilder } from "./PlanBuilder";
import { PlanChange } from "./PlanChange";
import { PlanStatusBadge } from "./PlanStatusBadge";
import { PlanTerms } from "./PlanTerms";
import { PlanTryout } from "./PlanTryout";
import { PlanVersions } from "./PlanVersions";
import { PublishPlan } from "./PublishPlan";
import { copyValues } from "./plan-values";

const route = getRouteApi("/signed-in/plans/$planId");

/** One plan: its terms, versions and assignments; admins change it after seeing the impact, finance previews. */
export function PlanPage() {
  const { session } = useRouteContext({ from: "/signed-in" });
  const { planId } = route.useParams();
  const loaded = useQuery(planQuery(planId));
  const isAdmin = session.user.role === "admin";
  const [duplicating, setDuplicating] = useState(false);
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
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="sm" wrap="wrap">
            <Title order={1} size="h2">
              {plan.name}
            </Title>
            <PlanStatusBadge status={plan.status} />
            <Text c="dimmed" data-testid="plan-version">
              version {plan.version}
            </Text>
          </Group>
          {isAdmin && (
            <Button variant="default" onClick={() => setDuplicating(true)}>
              Duplicate
            </Button>
          )}
        </Group>
        {plan.description && <Text c="dimmed">{plan.description}</Text>}
      </Stack>
      <PlanTerms plan={plan} />
      {plan.kind === "override" ? (
        // A sample deal's preview pays no manager: an override plan is published without trying it.
        isAdmin &&
        plan.status === "draft" && (
          <Group justify="flex-end">
            <PublishPlan plan={plan} etag={loaded.data.etag} />
          </Group>
        )
      ) : (
        <PlanTryout key={`tryout-${plan.id}`} plan={plan}>
          {isAdmin && plan.status === "draft" && <PublishPlan plan={plan} etag={loaded.data.etag} />}
        </PlanTryout>
      )}
      <PlanChange key={plan.id} base={loaded.data} canApply={isAdmin} />
      <PlanAssignments plan={plan} canEdit={isAdmin} />
      <PlanVersions plan={plan} />
      {duplicating && (
        <PlanBuilder start={copyValues(plan)} title={`Duplicate ${plan.name}`} onClose={() => setDuplicating(false)} />
      )}
    </Stack>
  );
}
