import {
  Alert,
  Button,
  Card,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useRouteContext } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { usePreviewCommission } from "../../data/commissions/mutations";
import type { CompPlan } from "../../data/comp-plans/queries";
import { DEAL_TYPES } from "../../data/deals/queries";
import { everyoneQuery } from "../../data/users/queries";
import { fieldErrors } from "../../lib/field-errors";
import { useFields } from "../../lib/fields";
import { money } from "../../lib/format";
import { today } from "../../lib/periods";
import { ActionError } from "../../ui/ActionError";
import { ExplanationTable } from "../../ui/commission/ExplanationTable";
import { LineHeader } from "../../ui/commission/LineHeader";
import { DEAL_TYPE_LABELS } from "../../ui/labels";
import { type SampleDeal, sampleBody, sampleDeal, sampleProblems } from "./sample-deal";

const FIELDS = ["arr_amount", "deal_type", "close_date", "owner_id"];
const TYPE_OPTIONS = DEAL_TYPES.map((value) => ({ value, label: DEAL_TYPE_LABELS[value] }));

/**
 * The plan tried on a sample deal (a draft too): what the engine would pay, with its calculation, as if
 * the deal were credited to the person picked (their deals in the period count toward attainment).
 * Nothing is saved. `children`: what comes after trying (a draft's Publish).
 */
export function PlanTryout({ plan, children }: { plan: CompPlan; children?: React.ReactNode }) {
  const { session } = useRouteContext({ from: "/signed-in" });
  const people = useQuery(everyoneQuery());
  const preview = usePreviewCommission();
  const [problems, setProblems] = useState<Record<string, string>>({});
  const errors = Object.keys(problems).length > 0 ? problems : fieldErrors(preview.error);
  const form = useFields<SampleDeal>(() => sampleDeal(plan, session.user.id, today()), errors);
  const names = new Map((people.data ?? []).map((p) => [p.id, p.name]));
  const options = (people.data ?? [])
    .filter((p) => p.active)
    .map((p) => ({ value: p.id, label: p.id === session.user.id ? `${p.name} (you)` : p.name }));
  const placed = Object.keys(fieldErrors(preview.error)).some((param) => FIELDS.includes(param));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = sampleProblems(form.values, plan.currency);
    setProblems(found);
    if (Object.keys(found).length === 0) preview.mutate(sampleBody(plan, form.values));
  };

  return (
    <Card withBorder>
      <Stack gap="sm">
        <div>
          <Title order={3} size="h4">
            Try it on a deal
          </Title>
          <Text size="sm" c="dimmed">
            What a deal would earn under this plan{plan.status === "draft" ? " (a draft too)" : ""}, with the engine's
            calculation. Nothing is saved.
          </Text>
        </div>
        <form onSubmit={submit} noValidate aria-label="Sample deal">
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
              <NumberInput
                label={`ARR amount (${plan.currency})`}
                decimalScale={2}
                min={0}
                thousandSeparator=","
                required
                {...form.value("arr_amount")}
              />
              <Select
                label="Deal type"
                data={TYPE_OPTIONS}
                allowDeselect={false}
                {...form.value("deal_type")}
                onChange={(value) => form.set("deal_type", DEAL_TYPES.find((t) => t === value) ?? "new_business")}
              />
              <TextInput type="date" label="Close date" required {...form.text("close_date")} />
              <Select
                label="Credited to"
                description="Their deals in the period count toward attainment."
                data={options}
                searchable
                allowDeselect={false}
                {...form.value("owner_id")}
              />
            </SimpleGrid>
            {preview.error && !placed && <ActionError error={preview.error} />}
            <Group justify="flex-end" gap="sm">
              <Button type="submit" variant="light" loading={preview.isPending}>
                Preview commission
              </Button>
              {children}
            </Group>
          </Stack>
        </form>
        {preview.data && preview.variables && (
          <Stack gap="sm" data-testid="tryout">
            <Group justify="space-between">
              <Text fw={600}>
                {money(preview.variables.arr_amount, plan.currency)}{" "}
                {DEAL_TYPE_LABELS[preview.variables.deal_type ?? "new_business"].toLowerCase()} deal for{" "}
                {names.get(preview.variables.owner_id) ?? preview.variables.owner_id}
              </Text>
              <Text fw={700} data-testid="tryout-total">
                {money(preview.data.total_commission, plan.currency)}
              </Text>
            </Group>
            {preview.data.explanation && (
              <Alert color="yellow" title="No plan line">
                {preview.data.explanation.summary}
              </Alert>
            )}
            {preview.data.lines.map((line) => (
              <Card
                withBorder
                key={`${line.user_id}-${line.kind}-${line.spiff_id ?? line.plan_id}`}
                data-testid="tryout-line"
                data-kind={line.kind}
                data-user-id={line.user_id}
              >
                <LineHeader
                  kind={line.kind}
                  person={names.get(line.user_id) ?? line.user_id}
                  period={line.period}
                  amount={line.amount}
                  currency={plan.currency}
                />
                <ExplanationTable line={line} currency={plan.currency} />
              </Card>
            ))}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
