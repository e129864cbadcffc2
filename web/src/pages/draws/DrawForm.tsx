import { Alert, Button, Group, Modal, NumberInput, Select, SimpleGrid, Stack, TextInput } from "@mantine/core";
import type { FormEvent } from "react";
import { type CreateDrawBody, useCreateDraw } from "../../data/draws/mutations";
import type { Draw } from "../../data/draws/queries";
import { fieldErrors } from "../../lib/field-errors";
import { useFields } from "../../lib/fields";
import { ActionError } from "../../ui/ActionError";
import { drawErrorInWords } from "./draw-text";

const FIELDS = ["user_id", "kind", "amount", "currency", "period", "starts_on", "ends_on", "recovery_starts_on"];

interface Props {
  people: { id: string; name: string }[];
  onSaved: (draw: Draw) => void;
  onClose: () => void;
}

/** A new draw (API.md §18): who, recoverable or not, the amount per month or quarter, and its window. */
export function DrawForm({ people, onSaved, onClose }: Props) {
  const create = useCreateDraw();
  const errors = fieldErrors(create.error);
  const form = useFields(
    () => ({
      user_id: null as string | null,
      kind: "recoverable" as string | null,
      amount: "" as number | string,
      currency: "USD",
      period: "month" as string | null,
      starts_on: "",
      ends_on: "",
      recovery_starts_on: "",
    }),
    errors,
  );
  const v = form.values;
  const placed = Object.keys(errors).some((param) => FIELDS.includes(param));
  const inWords = drawErrorInWords(create.error, "create");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // What the person left empty goes as it is typed: the API names each missing or wrong field.
    const body = {
      user_id: v.user_id ?? "",
      kind: v.kind,
      amount: v.amount === "" ? undefined : Number(v.amount),
      currency: v.currency.trim().toUpperCase(),
      period: v.period,
      starts_on: v.starts_on,
      ends_on: v.ends_on,
      ...(v.kind === "recoverable" && v.recovery_starts_on ? { recovery_starts_on: v.recovery_starts_on } : {}),
    } as CreateDrawBody;
    create.mutate(body, { onSuccess: onSaved });
  };

  return (
    <Modal opened onClose={onClose} closeButtonProps={{ "aria-label": "Close" }} title="New draw" centered size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Select
            label="Person"
            required
            searchable
            data-autofocus
            data={people.map((p) => ({ value: p.id, label: p.name }))}
            comboboxProps={{ withinPortal: false }}
            {...form.value("user_id")}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label="Kind"
              description="A recoverable draw's advances are recovered from later earnings."
              required
              allowDeselect={false}
              data={[
                { value: "recoverable", label: "Recoverable" },
                { value: "non_recoverable", label: "Non-recoverable" },
              ]}
              comboboxProps={{ withinPortal: false }}
              {...form.value("kind")}
            />
            <Select
              label="Period"
              required
              allowDeselect={false}
              data={[
                { value: "month", label: "Month" },
                { value: "quarter", label: "Calendar quarter" },
              ]}
              comboboxProps={{ withinPortal: false }}
              {...form.value("period")}
            />
            <NumberInput
              label="Amount per period"
              description="The guaranteed minimum each period."
              decimalScale={2}
              thousandSeparator=","
              min={0}
              required
              {...form.value("amount")}
            />
            <TextInput label="Currency" maxLength={3} required {...form.text("currency")} />
            <TextInput
              label="Starts on"
              description="A period's first day."
              type="date"
              required
              {...form.text("starts_on")}
            />
            <TextInput
              label="Ends on"
              description="A period's last day."
              type="date"
              required
              {...form.text("ends_on")}
            />
            {v.kind === "recoverable" && (
              <TextInput
                label="Recovery starts on"
                description="Empty: from the first day."
                type="date"
                {...form.text("recovery_starts_on")}
              />
            )}
          </SimpleGrid>
          {inWords && (
            <Alert color="red" role="alert" title="The draw was not created">
              {inWords}
            </Alert>
          )}
          {create.error && !placed && !inWords && <ActionError error={create.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create draw
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
