import {
  Button,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from "@mantine/core";
import { type FormEvent, useState } from "react";
import type { Schemas } from "../../api/types";
import { useCreateSpiff, useUpdateSpiff } from "../../data/spiffs/mutations";
import type { Spiff } from "../../data/spiffs/queries";
import { fieldErrors } from "../../lib/field-errors";
import { useFields } from "../../lib/fields";
import { percent } from "../../lib/format";
import { today } from "../../lib/periods";
import { ActionError } from "../../ui/ActionError";
import { DEAL_TYPE_LABELS } from "../../ui/labels";
import { spiffBody, spiffErrorsInWords, spiffProblems } from "./spiff-problems";

type Written = Schemas["SpiffWritten"];
const DEAL_TYPES = Object.entries(DEAL_TYPE_LABELS).map(([value, label]) => ({ value, label }));
const FIELDS = ["name", "description", "currency", "starts_on", "ends_on", "payout", "criteria", "active"];

interface Props {
  /** The SPIFF to edit; absent: a new one. */
  spiff?: Spiff;
  /** Everyone, to pick the users who may earn it. */
  people: { id: string; name: string }[];
  onSaved: (written: Written) => void;
  onClose: () => void;
}

const asInput = (value: number | null | undefined) => (value === null || value === undefined ? "" : value);
const asNumber = (value: number | string) => (value === "" ? null : Number(value));

/** The form's values from the SPIFF being edited, or a new one's. */
function valuesOf(spiff: Spiff | undefined) {
  return {
    name: spiff?.name ?? "",
    description: spiff?.description ?? "",
    currency: spiff?.currency ?? "USD",
    starts_on: spiff?.starts_on ?? today(),
    ends_on: spiff?.ends_on ?? "",
    payout: spiff?.payout.type ?? ("flat" as "flat" | "rate"),
    amount: (spiff?.payout.type === "flat" ? spiff.payout.amount : "") as number | string,
    rate: (spiff?.payout.type === "rate" ? spiff.payout.rate : "") as number | string,
    min_arr_amount: asInput(spiff?.criteria.min_arr_amount) as number | string,
    deal_types: (spiff?.criteria.deal_types ?? []) as string[],
    user_ids: spiff?.criteria.user_ids ?? [],
    active: spiff?.active ?? true,
  };
}

/** Create or edit a SPIFF: window, payout (flat per deal or a rate of credit) and who qualifies. */
export function SpiffForm({ spiff, people, onSaved, onClose }: Props) {
  const create = useCreateSpiff();
  const update = useUpdateSpiff();
  const saving = spiff ? update : create;
  // What the form found wrong on the last try, else the API's 422 of the last send: in words either way.
  const [problems, setProblems] = useState<Record<string, string>>({});
  const errors = Object.keys(problems).length > 0 ? problems : spiffErrorsInWords(fieldErrors(saving.error));
  const form = useFields(() => valuesOf(spiff), errors);
  const v = form.values;
  const firstError = (prefix: string) =>
    Object.entries(errors).find(
      ([param]) => param === prefix || param.startsWith(`${prefix}[`) || param.startsWith(`${prefix}.`),
    )?.[1];
  const placed = Object.keys(errors).some((param) => FIELDS.some((f) => param === f || param.startsWith(`${f}.`)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = spiffProblems(v);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const body = spiffBody(v);
    if (spiff) update.mutate({ id: spiff.id, body }, { onSuccess: onSaved });
    else create.mutate(body, { onSuccess: onSaved });
  };

  const rateValue = asNumber(v.rate);
  const inCurrency = `(${v.currency.toUpperCase() || "currency"})`;
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ "aria-label": "Close" }}
      title={spiff ? `Edit ${spiff.name}` : "New SPIFF"}
      centered
      size="xl"
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Name" required data-autofocus {...form.text("name")} />
            <TextInput
              label="Currency"
              description="Only deals in this currency qualify."
              maxLength={3}
              {...form.text("currency")}
            />
            <TextInput label="Starts on" type="date" required {...form.text("starts_on")} />
            <TextInput
              label="Ends on"
              description="Deals closing on both days count."
              type="date"
              required
              {...form.text("ends_on")}
            />
          </SimpleGrid>
          <Textarea label="Description" autosize minRows={2} {...form.text("description")} />

          <Stack gap={6}>
            <Text size="sm" fw={500} id="payout-label">
              Payout
            </Text>
            <SegmentedControl
              aria-labelledby="payout-label"
              value={v.payout}
              onChange={(value) => form.set("payout", value === "rate" ? "rate" : "flat")}
              data={[
                { value: "flat", label: "Flat amount per deal" },
                { value: "rate", label: "Rate of credit" },
              ]}
              w="fit-content"
            />
            {v.payout === "flat" ? (
              <NumberInput
                label={`Amount per deal ${inCurrency}`}
                description="Divided among the credited users by their split percent."
                decimalScale={2}
                thousandSeparator=","
                min={0}
                required
                maw={320}
                {...form.value("amount")}
                error={errors["payout.amount"] ?? errors.payout}
              />
            ) : (
              <NumberInput
                label="Rate (a decimal)"
                description={
                  rateValue !== null && Number.isFinite(rateValue)
                    ? `${percent(rateValue, 4)} of each credited user's credit`
                    : "0.02 pays 2 % of each credited user's credit"
                }
                decimalScale={6}
                min={0}
                required
                maw={320}
                {...form.value("rate")}
                error={errors["payout.rate"] ?? errors.payout}
              />
            )}
          </Stack>

          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberInput
              label={`Minimum ARR ${inCurrency}`}
              description="Empty: any amount."
              decimalScale={2}
              thousandSeparator=","
              min={0}
              {...form.value("min_arr_amount", "criteria.min_arr_amount")}
            />
            <MultiSelect
              label="Deal types"
              placeholder="Every type"
              data={DEAL_TYPES}
              comboboxProps={{ withinPortal: false }}
              {...form.value("deal_types")}
              error={firstError("criteria.deal_types")}
            />
            <MultiSelect
              label="Users"
              placeholder="Every credited user"
              data={people.map((p) => ({ value: p.id, label: p.name }))}
              searchable
              comboboxProps={{ withinPortal: false }}
              {...form.value("user_ids")}
              error={firstError("criteria.user_ids")}
            />
          </SimpleGrid>
          <Switch
            label="Active (an inactive SPIFF pays nothing: its pending lines go)"
            checked={v.active}
            onChange={(e) => form.set("active", e.currentTarget.checked)}
          />
          {saving.error && !placed && <ActionError error={saving.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={saving.isPending}>
              {spiff ? "Save changes" : "Create SPIFF"}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
