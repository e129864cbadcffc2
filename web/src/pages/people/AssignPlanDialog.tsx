import { Alert, Button, Group, List, Modal, Select, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useCreateAssignment } from "../../data/comp-plans/mutations";
import { allAssignmentsQuery, plansQuery } from "../../data/comp-plans/queries";
import type { User } from "../../data/users/queries";
import { useFields } from "../../lib/fields";
import { money } from "../../lib/format";
import {
  type AssignmentValues,
  assignmentBody,
  assignmentErrors,
  assignmentProblems,
} from "../../ui/plan-assignment/assignment-form";
import { OverlapNotice } from "../../ui/plan-assignment/OverlapNotice";
import { spanInWords } from "../../ui/plan-assignment/overlap";
import { QuotaOverride } from "../../ui/plan-assignment/QuotaOverride";

/** How many plans and assignments the dialog reads: a company has few plans, a person fewer assignments. */
const MANY = 100;

/**
 * A plan assigned from the person's side: the plans they are on (so the dates can avoid them), then a
 * plan, its dates and a quota of their own. An overlap the API refuses (409) is said as a sentence
 * naming the assignment in the way.
 */
export function AssignPlanDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const plans = useQuery(plansQuery({ page: 1, per_page: MANY }));
  const theirs = useQuery(allAssignmentsQuery({ user_id: user.id, per_page: MANY }));
  const create = useCreateAssignment();
  const [planId, setPlanId] = useState<string | null>(null);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const sent = assignmentErrors(create.error);
  const errors = Object.keys(problems).length > 0 ? problems : sent.fields;
  const form = useFields<AssignmentValues>(
    { user_id: user.id, effective_from: "", effective_to: "", quota_override: "" },
    errors,
  );
  const byId = new Map((plans.data?.data ?? []).map((p) => [p.id, p]));
  const plan = planId ? byId.get(planId) : undefined;
  const options = (plans.data?.data ?? [])
    .filter((p) => p.status !== "archived")
    .map((p) => ({ value: p.id, label: p.status === "draft" ? `${p.name} (draft)` : p.name }));
  const asked = create.variables;

  const pick = (id: string | null) => {
    setPlanId(id);
    const picked = id ? byId.get(id) : undefined;
    // A plan's first day is where its assignments usually start: offered until a date is typed.
    if (picked && form.values.effective_from === "") form.set("effective_from", picked.effective_from);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = assignmentProblems(form.values, (plan?.tiers.length ?? 0) > 0, plan?.currency ?? "USD");
    if (!planId) found.plan_id = "Pick the plan to assign.";
    setProblems(found);
    if (Object.keys(found).length > 0 || !planId) return;
    create.mutate({ planId, body: assignmentBody(form.values) }, { onSuccess: onClose });
  };

  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ "aria-label": "Close" }}
      title={`Assign a plan to ${user.name}`}
      size="lg"
      centered
    >
      <form onSubmit={submit} noValidate aria-label="Assign a plan">
        <Stack>
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              Plans {user.name} is on
            </Text>
            {theirs.data && theirs.data.data.length === 0 && (
              <Text size="sm" c="dimmed">
                None yet.
              </Text>
            )}
            {theirs.data && theirs.data.data.length > 0 && (
              <List size="sm" spacing={2} data-testid="current-assignments">
                {theirs.data.data.map((a) => (
                  <List.Item key={a.id} data-assignment-id={a.id}>
                    {byId.get(a.plan_id)?.name ?? a.plan_id}: {spanInWords(a)}
                    {a.quota_override !== null &&
                      `, quota ${money(a.quota_override, byId.get(a.plan_id)?.currency ?? "USD")}`}
                  </List.Item>
                ))}
              </List>
            )}
            {theirs.error && (
              <Text size="sm" c="red.8">
                Their current plans could not be read: {theirs.error.message}
              </Text>
            )}
          </Stack>
          <Select
            label="Plan"
            placeholder="Pick a plan"
            data={options}
            searchable
            required
            value={planId}
            onChange={pick}
            comboboxProps={{ withinPortal: true }}
            error={errors.plan_id}
            data-autofocus
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              type="date"
              label="Effective from"
              required
              {...form.text("effective_from")}
              error={errors.effective_from ?? sent.overlap}
            />
            <TextInput
              type="date"
              label="Effective to"
              description="Empty: open-ended"
              {...form.text("effective_to")}
              error={errors.effective_to ?? sent.overlap}
            />
          </SimpleGrid>
          {/* An override plan has no quota to override (API.md §16). */}
          {plan?.kind !== "override" && (
            <QuotaOverride currency={plan?.currency ?? ""} {...form.value("quota_override")} />
          )}
          {asked && (
            <OverlapNotice
              error={create.error}
              userId={user.id}
              who={user.name}
              planId={asked.planId}
              span={{ effective_from: asked.body.effective_from, effective_to: asked.body.effective_to ?? null }}
            />
          )}
          {sent.form && (
            <Alert color="red" role="alert">
              {sent.form.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Assign plan
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
