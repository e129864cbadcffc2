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
import type { DealType } from "../../data/deals/queries";
import { type CreateSpiffBody, useCreateSpiff, useUpdateSpiff } from "../../data/spiffs/mutations";
import type { Spiff } from "../../data/spiffs/queries";
import { fieldErrors } from "../../lib/field-errors";
import { percent } from "../../lib/format";
import { today } from "../../lib/periods";
import { ActionError } from "../../ui/ActionError";
import { DEAL_TYPE_LABELS } from "../../ui/labels";

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

/** Create or edit a SPIFF: window, payout (flat per deal or a rate of credit) and who qualifies. */
export function SpiffForm({ spiff, people, onSaved, onClose }: Props) {
  const create = useCreateSpiff();
  const update = useUpdateSpiff();
  const saving = spiff ? update : create;
  const [name, setName] = useState(spiff?.name ?? "");
  const [description, setDescription] = useState(spiff?.description ?? "");
  const [currency, setCurrency] = useState(spiff?.currency ?? "USD");
  const [startsOn, setStartsOn] = useState(spiff?.starts_on ?? today());
  const [endsOn, setEndsOn] = useState(spiff?.ends_on ?? "");
  const [payoutType, setPayoutType] = useState<"flat" | "rate">(spiff?.payout.type ?? "flat");
  const [amount, setAmount] = useState<number | string>(spiff?.payout.type === "flat" ? spiff.payout.amount : "");
  const [rate, setRate] = useState<number | string>(spiff?.payout.type === "rate" ? spiff.payout.rate : "");
  const [minArr, setMinArr] = useState<number | string>(asInput(spiff?.criteria.min_arr_amount));
  const [dealTypes, setDealTypes] = useState<string[]>(spiff?.criteria.deal_types ?? []);
  const [userIds, setUserIds] = useState<string[]>(spiff?.criteria.user_ids ?? []);
  const [active, setActive] = useState(spiff?.active ?? true);
  const errors = fieldErrors(saving.error);
  const firstError = (prefix: string) =>
    Object.entries(errors).find(
      ([param]) => param === prefix || param.startsWith(`${prefix}[`) || param.startsWith(`${prefix}.`),
    )?.[1];
  const placed = Object.keys(errors).some((param) => FIELDS.some((f) => param === f || param.startsWith(`${f}.`)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: CreateSpiffBody = {
      name,
      description: description.trim() || null,
      currency: currency.trim().toUpperCase(),
      starts_on: startsOn,
      ends_on: endsOn,
      payout:
        payoutType === "flat"
          ? { type: "flat", amount: asNumber(amount) ?? Number.NaN }
          : { type: "rate", rate: asNumber(rate) ?? Number.NaN },
      criteria: {
        min_arr_amount: asNumber(minArr),
        deal_types: dealTypes.length > 0 ? (dealTypes as DealType[]) : null,
        user_ids: userIds.length > 0 ? userIds : null,
      },
      active,
    };
    if (spiff) update.mutate({ id: spiff.id, body }, { onSuccess: onSaved });
    else create.mutate(body, { onSuccess: onSaved });
  };

  const rateValue = asNumber(rate);
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
            <TextInput
              label="Name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              required
              error={errors.name}
              data-autofocus
            />
            <TextInput
              label="Currency"
              description="Only deals in this currency qualify."
              value={currency}
              onChange={(e) => setCurrency(e.currentTarget.value)}
              maxLength={3}
              error={errors.currency}
            />
            <TextInput
              label="Starts on"
              type="date"
              value={startsOn}
              onChange={(e) => setStartsOn(e.currentTarget.value)}
              required
              error={errors.starts_on}
            />
            <TextInput
              label="Ends on"
              description="Deals closing on both days count."
              type="date"
              value={endsOn}
              onChange={(e) => setEndsOn(e.currentTarget.value)}
              required
              error={errors.ends_on}
            />
          </SimpleGrid>
          <Textarea
            label="Description"
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            autosize
            minRows={2}
            error={errors.description}
          />

          <Stack gap={6}>
            <Text size="sm" fw={500} id="payout-label">
              Payout
            </Text>
            <SegmentedControl
              aria-labelledby="payout-label"
              value={payoutType}
              onChange={(value) => setPayoutType(value as "flat" | "rate")}
              data={[
                { value: "flat", label: "Flat amount per deal" },
                { value: "rate", label: "Rate of credit" },
              ]}
              w="fit-content"
            />
            {payoutType === "flat" ? (
              <NumberInput
                label={`Amount per deal (${currency.toUpperCase() || "currency"})`}
                description="Divided among the credited users by their split percent."
                value={amount}
                onChange={setAmount}
                decimalScale={2}
                thousandSeparator=","
                min={0}
                required
                error={errors["payout.amount"] ?? errors.payout}
                maw={320}
              />
            ) : (
              <NumberInput
                label="Rate (a decimal)"
                description={
                  rateValue !== null && Number.isFinite(rateValue)
                    ? `${percent(rateValue, 4)} of each credited user's credit`
                    : "0.02 pays 2 % of each credited user's credit"
                }
                value={rate}
                onChange={setRate}
                decimalScale={6}
                min={0}
                required
                error={errors["payout.rate"] ?? errors.payout}
                maw={320}
              />
            )}
          </Stack>

          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberInput
              label={`Minimum ARR (${currency.toUpperCase() || "currency"})`}
              description="Empty: any amount."
              value={minArr}
              onChange={setMinArr}
              decimalScale={2}
              thousandSeparator=","
              min={0}
              error={errors["criteria.min_arr_amount"]}
            />
            <MultiSelect
              label="Deal types"
              placeholder="Every type"
              data={DEAL_TYPES}
              value={dealTypes}
              onChange={setDealTypes}
              error={firstError("criteria.deal_types")}
              comboboxProps={{ withinPortal: false }}
            />
            <MultiSelect
              label="Users"
              placeholder="Every credited user"
              data={people.map((p) => ({ value: p.id, label: p.name }))}
              value={userIds}
              onChange={setUserIds}
              searchable
              error={firstError("criteria.user_ids")}
              comboboxProps={{ withinPortal: false }}
            />
          </SimpleGrid>
          <Switch
            label="Active (an inactive SPIFF pays nothing: its pending lines go)"
            checked={active}
            onChange={(e) => setActive(e.currentTarget.checked)}
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
