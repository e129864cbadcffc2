import { Text } from "@mantine/core";
import { useDeleteRates } from "../../data/exchange-rates/mutations";
import type { ExchangeRateSet } from "../../data/exchange-rates/queries";
import { ConfirmModal } from "../../ui/ConfirmModal";

/** Delete one day's set for a base, after a confirmation: deals converted with it are priced again. */
export function DeleteRatesDialog({ set, onClose }: { set: ExchangeRateSet; onClose: () => void }) {
  const remove = useDeleteRates(set.date, set.base);
  return (
    <ConfirmModal
      opened
      title={`Delete the ${set.base} rates of ${set.date}?`}
      confirmLabel="Delete rates"
      cancelLabel="Keep them"
      destructive
      pending={remove.isPending}
      error={remove.error}
      onConfirm={() => remove.mutate(undefined, { onSuccess: onClose })}
      onClose={onClose}
    >
      <Text size="sm">
        The {Object.keys(set.rates).length} rates of base {set.base} for {set.date} are removed. Pending deals that were
        converted with them are priced again with the rates left, or show the rate as missing.
      </Text>
    </ConfirmModal>
  );
}
