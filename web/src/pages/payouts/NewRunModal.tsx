import { Alert, Button, Group, Modal, MultiSelect, NumberInput, Stack, TextInput } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { useCreatePayoutRun } from "../../data/payout-runs/mutations";
import { everyoneQuery } from "../../data/users/queries";
import { fieldErrors } from "../../lib/field-errors";

/** Today in UTC, as the API compares `through` with it (API.md §13: not after today). */
const todayUtc = () => new Date().toISOString().slice(0, 10);

/**
 * A new draft run: the date its lines are eligible through, the day it pays, how much of a person's
 * earnings may recover what they owe, and optionally only some people. The API selects and nets; the
 * run page shows the result to review before anything is paid.
 */
export function NewRunModal({ onClose }: { onClose: () => void }) {
  const [through, setThrough] = useState(todayUtc);
  const [payDate, setPayDate] = useState(todayUtc);
  const [recovery, setRecovery] = useState<number | string>(100);
  const [people, setPeople] = useState<string[]>([]);
  const everyone = useQuery(everyoneQuery());
  const create = useCreatePayoutRun();
  const navigate = useNavigate();
  const errors = fieldErrors(create.error);
  const known = new Set(["through", "pay_date", "max_recovery_percent", "user_ids"]);
  const otherError = create.error && !Object.keys(errors).some((f) => known.has(f.split("[")[0]!));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const run = await create.mutateAsync({
      through,
      pay_date: payDate,
      max_recovery_percent: recovery === "" ? 100 : Number(recovery),
      ...(people.length > 0 ? { user_ids: people } : {}),
    });
    onClose();
    void navigate({ to: "/payouts/runs/$runId", params: { runId: run.id } });
  };

  return (
    <Modal opened onClose={onClose} title="New payout run" closeButtonProps={{ "aria-label": "Close" }} centered>
      <form onSubmit={(e) => void submit(e).catch(() => {})} noValidate>
        <Stack>
          <TextInput
            type="date"
            label="Lines approved through"
            description="Every approved line up to this day that no other run holds"
            value={through}
            onChange={(e) => setThrough(e.currentTarget.value)}
            max={todayUtc()}
            required
            error={errors.through}
          />
          <TextInput
            type="date"
            label="Pay date"
            description="The day payroll pays it"
            value={payDate}
            onChange={(e) => setPayDate(e.currentTarget.value)}
            min={through}
            required
            error={errors.pay_date}
          />
          <NumberInput
            label="Recover at most (% of a person's earnings)"
            description="What someone owes from earlier clawbacks comes out of this run up to this share"
            value={recovery}
            onChange={setRecovery}
            min={0}
            max={100}
            decimalScale={4}
            suffix=" %"
            error={errors.max_recovery_percent}
          />
          <MultiSelect
            label="Only these people"
            description="Leave empty to pay everyone"
            data={(everyone.data ?? []).map((u) => ({ value: u.id, label: u.name }))}
            value={people}
            onChange={setPeople}
            searchable
            clearable
            comboboxProps={{ withinPortal: true }}
            error={Object.entries(errors).find(([field]) => field.startsWith("user_ids"))?.[1]}
          />
          {otherError && (
            <Alert color="red" role="alert">
              {create.error?.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create draft run
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
