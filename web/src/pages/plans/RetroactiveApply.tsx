import { Button, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import type { PlanImpact } from "../../data/comp-plans/mutations";
import { signedMoney } from "../../lib/format";
import { ActionError } from "../../ui/ActionError";

interface Props {
  planName: string;
  /** The previewed impact, when it is known: what the correction writes. */
  impact: PlanImpact | undefined;
  currency: string;
  pending: boolean;
  /** The retroactive apply's refusal (nothing was written). */
  error: unknown;
  onConfirm: () => Promise<unknown>;
}

/**
 * Applying a change to locked history too (API.md §12, `retroactive`): an approved, locked adjustment for
 * every locked line the change moves, on statements people may have been paid from. A secondary action
 * that asks for the plan's name typed out before it runs.
 */
export function RetroactiveApply({ planName, impact, currency, pending, error, onConfirm }: Props) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const matches = typed.trim() === planName.trim();
  const close = () => {
    setOpen(false);
    setTyped("");
  };
  // Counted only when the impact holds every changed line (it pages the largest first).
  const locked =
    impact && impact.lines.data.length === impact.lines.meta.total
      ? impact.lines.data.filter((l) => l.locked).length
      : undefined;
  return (
    <>
      <Button variant="outline" color="red.8" onClick={() => setOpen(true)} disabled={pending}>
        Apply and correct locked history…
      </Button>
      <Modal
        opened={open}
        onClose={close}
        closeButtonProps={{ "aria-label": "Close" }}
        title="Correct locked history too?"
        centered
      >
        <Stack>
          <Text size="sm">
            Besides recalculating pending lines, this writes an approved, locked adjustment for every locked line the
            change moves, on statements people may already have been paid from. Another edit does not undo them.
          </Text>
          {impact && (
            <Text size="sm" fw={600} data-testid="retroactive-total">
              {impact.summary.locked_delta === 0
                ? "The impact shows no locked line moving: nothing would be written."
                : `${signedMoney(impact.summary.locked_delta, currency)} in adjustments${
                    locked !== undefined ? ` over ${locked} locked line${locked === 1 ? "" : "s"}` : ""
                  }, as the impact shows.`}
            </Text>
          )}
          <TextInput
            label="Type the plan's name to confirm"
            description={planName}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            autoComplete="off"
            data-autofocus
          />
          <ActionError error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={pending}>
              Cancel
            </Button>
            <Button
              color="red.8"
              disabled={!matches}
              loading={pending}
              onClick={() => void onConfirm().then(close, () => {})}
            >
              Apply and correct locked history
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
