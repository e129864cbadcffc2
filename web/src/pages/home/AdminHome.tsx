import { Badge, Group, List, SimpleGrid, Stack, Text, ThemeIcon, Title, VisuallyHidden } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { AnchorLink } from "../../ui/AnchorLink";
import { ErrorState, LoadingState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { CountCard } from "./CountCard";
import { adminHomeQueries } from "./loader";
import { isSetUp, type Step, setupSteps } from "./setup";

/**
 * An admin's home: the setup checklist (plans, people, assignments, deals, API keys — each done once the
 * API lists one) until everything is set up, then the task inbox (approvals, disputes, payouts due).
 * Each count is one list's meta.total (the route's loader asked for the same queries).
 */
export function AdminHome() {
  const q = adminHomeQueries();
  const plans = useQuery(q.plans);
  const reps = useQuery(q.reps);
  const assignments = useQuery(q.assignments);
  const deals = useQuery(q.deals);
  const apiKeys = useQuery(q.apiKeys);
  const pending = useQuery(q.pending);
  const disputes = useQuery(q.disputes);
  const payouts = useQuery(q.payouts);
  const all = [plans, reps, assignments, deals, apiKeys, pending, disputes, payouts];
  const failed = all.find((r) => r.isError);
  const loaded = all.every((r) => r.data !== undefined);
  useRenderedMark(loaded);
  if (failed) return <ErrorState error={failed.error} retry={() => void Promise.all(all.map((r) => r.refetch()))} />;
  if (!loaded) return <LoadingState label="Loading your tasks" lines={5} />;

  const steps = setupSteps({
    plans: plans.data!.meta.total,
    people: reps.data!.meta.total,
    assignments: assignments.data!.meta.total,
    deals: deals.data!.meta.total,
    apiKeys: apiKeys.data!.meta.total,
  });
  const setUp = isSetUp(steps);
  const tasks: Step[] = [
    {
      id: "approvals",
      label: "Deals waiting for approval",
      count: pending.data!.meta.total,
      to: "/approvals",
      hint: "Approve or reject them.",
    },
    {
      id: "disputes",
      label: "Open disputes",
      count: disputes.data!.meta.total,
      to: "/dispute-queue",
      hint: "Resolve them.",
    },
    {
      id: "payouts",
      label: "Payouts due (by rep and period)",
      count: payouts.data!.meta.total,
      to: "/payouts",
      hint: "Pay what is approved.",
    },
  ];

  return setUp ? (
    <section aria-labelledby="task-inbox" data-testid="task-inbox">
      <Title order={2} size="h3" id="task-inbox" mb="sm">
        What waits for you
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        {tasks.map((task) => (
          <CountCard key={task.id} testId={`task-${task.id}`} label={task.label} count={task.count}>
            <AnchorLink to={task.to} size="sm">
              {task.count === 0 ? "Open" : task.hint}
            </AnchorLink>
          </CountCard>
        ))}
      </SimpleGrid>
    </section>
  ) : (
    <section aria-labelledby="setup-checklist" data-testid="setup-checklist">
      <Title order={2} size="h3" id="setup-checklist" mb={4}>
        Set up commission tracking
      </Title>
      <Text size="sm" c="gray.7" mb="sm">
        {steps.filter((s) => s.count > 0).length} of {steps.length} done. Each step is done once there is one.
      </Text>
      <List spacing="sm" listStyleType="none">
        {steps.map((step) => (
          <List.Item key={step.id} data-testid={`setup-${step.id}`} data-done={step.count > 0}>
            <Group gap="sm" wrap="nowrap" align="flex-start">
              <Mark done={step.count > 0} />
              <Stack gap={0}>
                <Group gap="xs">
                  <AnchorLink to={step.to} fw={600}>
                    {step.label}
                  </AnchorLink>
                  <Badge variant="light" color={step.count > 0 ? "green.9" : "gray"} data-testid="count">
                    {step.count}
                  </Badge>
                </Group>
                {step.count === 0 && (
                  <Text size="sm" c="gray.7">
                    {step.hint}
                  </Text>
                )}
              </Stack>
            </Group>
          </List.Item>
        ))}
      </List>
    </section>
  );
}

function Mark({ done }: { done: boolean }): ReactNode {
  return (
    <ThemeIcon size="sm" radius="xl" color={done ? "green.9" : "gray.6"} variant={done ? "filled" : "outline"}>
      <span aria-hidden>{done ? "✓" : ""}</span>
      <VisuallyHidden>{done ? "Done:" : "To do:"}</VisuallyHidden>
    </ThemeIcon>
  );
}
