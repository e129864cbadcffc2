import { Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { type Assignment, type CompPlan, planAssignmentsQuery } from "../../data/comp-plans/queries";
import { everyoneQuery, namesOf } from "../../data/users/queries";
import { date, money } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import { type Column, DataTable } from "../../ui/DataTable";
import { AddAssignmentForm } from "./AddAssignmentForm";
import { AssignmentDialog, type DialogMode } from "./AssignmentDialog";

const MODE_LABELS: Record<DialogMode, string> = { end: "End", edit: "Edit", delete: "Delete" };
const nowrap = () => ({ style: { whiteSpace: "nowrap" } });

/** Who the plan is assigned to and when; admins add, end, change the quota override of, and delete them. */
export function PlanAssignments({ plan, canEdit }: { plan: CompPlan; canEdit: boolean }) {
  const assignments = useQuery(planAssignmentsQuery(plan.id));
  const users = useQuery(everyoneQuery());
  const [dialog, setDialog] = useState<{ mode: DialogMode; assignment: Assignment } | null>(null);
  const names = namesOf(users.data ?? []);
  const nameOf = (a: Assignment) => names.get(a.user_id) ?? a.user_id;

  const columns: Column<Assignment>[] = [
    {
      header: "Person",
      cell: (a) => (
        <AnchorLink to="/people/$userId" params={{ userId: a.user_id }}>
          {nameOf(a)}
        </AnchorLink>
      ),
    },
    { header: "From", id: "from", props: nowrap, cell: (a) => date(a.effective_from) },
    {
      header: "To",
      id: "to",
      props: nowrap,
      cell: (a) => (a.effective_to === null ? "open-ended" : date(a.effective_to)),
    },
    {
      header: "Quota override",
      id: "quota-override",
      numeric: true,
      props: nowrap,
      cell: (a) => (a.quota_override === null ? "—" : money(a.quota_override, plan.currency)),
    },
  ];
  if (canEdit) {
    columns.push({
      header: "Actions",
      cell: (a) => (
        <Group gap={4} wrap="nowrap">
          {(["end", "edit", "delete"] as const).map((mode) => (
            <Button
              key={mode}
              size="compact-xs"
              variant={mode === "delete" ? "outline" : "light"}
              color={mode === "delete" ? "red.9" : undefined}
              aria-label={`${MODE_LABELS[mode]} ${nameOf(a)}'s assignment`}
              onClick={() => setDialog({ mode, assignment: a })}
            >
              {MODE_LABELS[mode]}
            </Button>
          ))}
        </Group>
      ),
    });
  }

  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={3} size="h4">
          Assignments
        </Title>
        <Text size="sm" c="dimmed">
          A person has at most one plan in force on any day. Changing an assignment recalculates their pending lines.
        </Text>
        <DataTable
          label="Assignments"
          testId="assignments"
          minWidth={canEdit ? 720 : 520}
          table={{ striped: true }}
          columns={columns}
          query={{
            error: assignments.error ?? users.error,
            refetch: () => Promise.all([assignments.refetch(), users.refetch()]),
          }}
          rows={users.data && assignments.data}
          rowProps={(a) => ({ "data-assignment-id": a.id })}
          loading="Loading assignments"
          loadingLines={3}
          empty={{ title: "No one is assigned this plan", children: canEdit ? "Add someone below." : undefined }}
        />
        {canEdit && users.data && <AddAssignmentForm plan={plan} users={users.data} />}
      </Stack>
      {dialog && (
        <AssignmentDialog
          mode={dialog.mode}
          assignment={dialog.assignment}
          name={nameOf(dialog.assignment)}
          currency={plan.currency}
          tiered={plan.tiers.length > 0}
          override={plan.kind === "override"}
          onClose={() => setDialog(null)}
        />
      )}
    </Card>
  );
}
