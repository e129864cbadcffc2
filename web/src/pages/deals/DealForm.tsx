import {
  Button,
  Card,
  Grid,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useBlocker, useNavigate } from "@tanstack/react-router";
import { type FormEvent, type ReactNode, useRef, useState } from "react";
import { DEAL_TYPES, type DealDetail } from "../../data/deals/queries";
import type { User } from "../../data/users/queries";
import { ActionError } from "../../ui/ActionError";
import { ConfirmModal } from "../../ui/ConfirmModal";
import { DEAL_TYPE_LABELS } from "../../ui/labels";
import { DealPreview } from "./DealPreview";
import {
  type DealValues,
  dealErrorsOf,
  dealProblems,
  previewBody,
  type SplitValues,
  splitSum,
  sumWords,
} from "./deal-problems";
import { SplitRows } from "./SplitRows";
import { useDealPreview } from "./useDealPreview";

const TYPE_OPTIONS = DEAL_TYPES.map((value) => ({ value, label: DEAL_TYPE_LABELS[value] }));
/** The fields the preview prices (deal-problems.ts `previewBody`), in the order the form shows them. */
const PRICED = ["owner_id", "arr_amount", "currency", "close_date", "splits"];

interface Props {
  initial: DealValues;
  /** Everyone the admin may credit (GET /users, every page); undefined while loading. */
  people: User[] | undefined;
  /** An edit of this deal; absent: a new one. */
  editing?: DealDetail;
  submitLabel: string;
  /** Sends the values (the form found nothing wrong); resolves with the deal as saved. */
  save: (values: DealValues) => Promise<DealDetail>;
  saving: boolean;
  /** The last save's refusal: said on its field in words, or above the buttons. */
  error: unknown;
  /** Where Cancel goes (the deal, or the list). */
  cancel: () => void;
  /** What the refusal means when no field names it (a stale edit). */
  errorWords?: (error: unknown) => ReactNode;
}

/**
 * A pending deal's fields with the commission it would earn beside them, priced as typed. Problems
 * are said in words on their fields when saving (the shares' sum as it is typed); unsaved changes ask
 * before the page is left.
 */
export function DealForm({ initial, people, editing, submitLabel, save, saving, error, cancel, errorWords }: Props) {
  const navigate = useNavigate();
  const [values, setValues] = useState(initial);
  const [tried, setTried] = useState(false);
  const saved = useRef(false);
  const set = <K extends keyof DealValues>(key: K, value: DealValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  const problems = tried ? dealProblems(values) : {};
  const errors = Object.keys(problems).length > 0 ? problems : dealErrorsOf(error);
  const placed = Object.keys(errors).length > 0;
  const sum = values.splits.length > 0 ? splitSum(values.splits) : undefined;
  const sumProblem = sum !== undefined && Math.round(sum * 10_000) !== 1_000_000 ? sumWords(sum) : undefined;
  const waiting = [...new Set(Object.keys(dealProblems(values)).map((p) => p.replace(/\[.*$/, "")))].filter((p) =>
    PRICED.includes(p),
  );
  const preview = useDealPreview(previewBody(values, editing?.id));

  // People who left are not offered, unless the deal credits them already.
  const chosen = new Set([values.owner_id, ...values.splits.map((s) => s.user_id)]);
  const options = (people ?? [])
    .filter((p) => p.active || chosen.has(p.id))
    .map((p) => ({ value: p.id, label: p.name }))
    .sort((a, b) => a.label.localeCompare(b.label));
  const nameOf = (id: string) =>
    people?.find((p) => p.id === id)?.name ?? editing?.people.find((p) => p.user_id === id)?.name ?? id;

  const dirty = JSON.stringify(values) !== JSON.stringify(initial);
  const blocker = useBlocker({
    shouldBlockFn: () => dirty && !saved.current,
    enableBeforeUnload: () => dirty && !saved.current,
    withResolver: true,
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (Object.keys(dealProblems(values)).length > 0) return;
    const deal = await save(values);
    saved.current = true;
    await navigate({ to: "/deals/$dealId", params: { dealId: deal.id } });
  };

  return (
    <>
      <Grid gap="lg" align="flex-start">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Card withBorder component="form" onSubmit={(e: FormEvent) => void submit(e).catch(() => {})} noValidate>
            <Stack>
              <TextInput
                label="Opportunity name"
                description="As your CRM names it."
                value={values.opportunity_name}
                onChange={(e) => set("opportunity_name", e.currentTarget.value)}
                required
                error={errors.opportunity_name}
              />
              <Select
                label="Owner"
                placeholder={people ? "Pick a person" : "Loading people…"}
                data={options}
                value={values.owner_id}
                onChange={(value) => set("owner_id", value)}
                searchable
                required
                error={errors.owner_id}
                comboboxProps={{ withinPortal: true }}
              />
              <SimpleGrid cols={{ base: 1, xs: 2 }}>
                <NumberInput
                  label="ARR amount"
                  description="Annual recurring revenue."
                  value={values.arr_amount}
                  onChange={(value) => set("arr_amount", value)}
                  min={0}
                  allowNegative={false}
                  hideControls
                  decimalScale={2}
                  thousandSeparator=","
                  required
                  error={errors.arr_amount}
                />
                <TextInput
                  label="Currency"
                  description="Three letters, such as USD or EUR."
                  value={values.currency}
                  onChange={(e) => set("currency", e.currentTarget.value.toUpperCase())}
                  maxLength={3}
                  required
                  error={errors.currency}
                />
                <Select
                  label="Deal type"
                  data={TYPE_OPTIONS}
                  value={values.deal_type}
                  onChange={(value) => set("deal_type", DEAL_TYPES.find((t) => t === value) ?? values.deal_type)}
                  allowDeselect={false}
                  error={errors.deal_type}
                  comboboxProps={{ withinPortal: true }}
                />
                <TextInput
                  label="Close date"
                  type="date"
                  value={values.close_date}
                  onChange={(e) => set("close_date", e.currentTarget.value)}
                  required
                  error={errors.close_date}
                />
              </SimpleGrid>
              <SplitRows
                splits={values.splits}
                ownerId={values.owner_id}
                people={options}
                nameOf={nameOf}
                errors={errors}
                sumProblem={sumProblem}
                onChange={(splits: SplitValues[]) => set("splits", splits)}
              />
              <Stack gap={4}>
                <Title order={2} size="h5">
                  Optional
                </Title>
                <Text size="xs" c="gray.7">
                  The contract's dates prorate a cancellation's clawback; the CRM id lets a sync find this deal.
                </Text>
              </Stack>
              <SimpleGrid cols={{ base: 1, xs: 2 }}>
                <TextInput
                  label="Contract start"
                  type="date"
                  value={values.contract_start}
                  onChange={(e) => set("contract_start", e.currentTarget.value)}
                  error={errors.contract_start}
                />
                <TextInput
                  label="Contract end"
                  type="date"
                  value={values.contract_end}
                  onChange={(e) => set("contract_end", e.currentTarget.value)}
                  error={errors.contract_end}
                />
              </SimpleGrid>
              <TextInput
                label="CRM id"
                value={values.external_id}
                onChange={(e) => set("external_id", e.currentTarget.value)}
                error={errors.external_id}
              />
              {Boolean(error) && !placed && (errorWords?.(error) ?? <ActionError error={error} />)}
              <Group justify="flex-end">
                <Button variant="default" onClick={cancel} disabled={saving}>
                  Cancel
                </Button>
                <Button type="submit" loading={saving}>
                  {submitLabel}
                </Button>
              </Group>
            </Stack>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }} style={{ position: "sticky", top: 72 }}>
          <Card withBorder>
            <DealPreview state={preview} waiting={waiting} nameOf={nameOf} editing={editing !== undefined} />
          </Card>
        </Grid.Col>
      </Grid>
      <ConfirmModal
        opened={blocker.status === "blocked"}
        title="Leave without saving?"
        confirmLabel="Leave"
        cancelLabel="Stay"
        destructive
        pending={false}
        error={null}
        onConfirm={() => blocker.proceed?.()}
        onClose={() => blocker.reset?.()}
      >
        {editing ? `Your changes to ${editing.opportunity_name} are not saved.` : "This new deal is not saved."}
      </ConfirmModal>
    </>
  );
}
