import { Button, Card, Group, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { type Assignment, type CompPlan, planAssignmentsQuery } from "../../data/comp-plans/queries";
import { everyoneQuery } from "../../data/users/queries";
import { date, money } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import { ScrollTable } from "../../ui/ScrollTable";
import { EmptyState, ErrorState, LoadingState } from "../../ui/states";
import { AddAssignmentForm } from "./AddAssignmentForm";
import { AssignmentDialog, type DialogMode } from "./AssignmentDialog";

/** Who the plan is assigned to and when; admins add, end, change the quota override of, and delete them. */
export function PlanAssignments({ plan, canEdit }: { plan: CompPlan; canEdit: boolean }) {
  const assignments = useQuery(planAssignmentsQuery(plan.id));
  const users = useQuery(everyoneQuery());
  const [dialog, setDialog] = useState<{ mode: DialogMode; assignment: Assignment } | null>(null);
  const names = new Map((users.data ?? []).map((u) => [u.id, u.name]));

  const body = (() => {
    const error = assignments.error ?? users.error;
    if (error) {
      return (
        <ErrorState
          error={error}
          retry={() => {
            void assignments.refetch();
            void users.refetch();
          }}
        />
      );
    }
    if (!assignments.data || !users.data) return <LoadingState label="Loading assignments" lines={3} />;
    if (assignments.data.length === 0) {
      return <EmptyState title="No one is assigned this plan">{canEdit ? "Add someone below." : undefined}</EmptyState>;
    }
    return (
      <ScrollTable minWidth={canEdit ? 720 : 520} label="Assignments">
        <Table aria-label="Assignments" striped data-testid="assignments">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Person</Table.Th>
              <Table.Th>From</Table.Th>
              <Table.Th>To</Table.Th>
              <Table.Th ta="right">Quota override</Table.Th>
              {canEdit && <Table.Th>Actions</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {assignments.data.map((a) => {
              const name = names.get(a.user_id) ?? a.user_id;
              return (
                <Table.Tr key={a.id} data-assignment-id={a.id}>
                  <Table.Td>
                    <AnchorLink to="/people/$userId" params={{ userId: a.user_id }}>
                      {name}
                    </AnchorLink>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: "nowrap" }} data-col="from">
                    {date(a.effective_from)}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: "nowrap" }} data-col="to">
                    {a.effective_to === null ? "open-ended" : date(a.effective_to)}
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: "nowrap" }} data-col="quota-override">
                    {a.quota_override === null ? "—" : money(a.quota_override, plan.currency)}
                  </Table.Td>
                  {canEdit && (
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        {(["end", "edit", "delete"] as const).map((mode) => (
                          <Button
                            key={mode}
                            size="compact-xs"
                            variant={mode === "delete" ? "outline" : "light"}
                            color={mode === "delete" ? "red.9" : undefined}
                            aria-label={`${MODE_LABELS[mode]} ${name}'s assignment`}
                            onClick={() => setDialog({ mode, assignment: a })}
                          >
                            {MODE_LABELS[mode]}
                          </Button>
                        ))}
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollTable>
    );
  })();

  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={3} size="h4">
          Assignments
        </Title>
        <Text size="sm" c="dimmed">
          A person has at most one plan in force on any day. Changing an assignment recalculates their pending lines.
        </Text>
        {body}
        {canEdit && users.data && <AddAssignmentForm plan={plan} users={users.data} />}
      </Stack>
      {dialog && (
        <AssignmentDialog
          mode={dialog.mode}
          assignment={dialog.assignment}
          name={names.get(dialog.assignment.user_id) ?? dialog.assignment.user_id}
          currency={plan.currency}
          onClose={() => setDialog(null)}
        />
      )}
    </Card>
  );
}

const MODE_LABELS: Record<DialogMode, string> = { end: "End", edit: "Edit", delete: "Delete" };
