import type { Schemas } from "../../api/types";
import { useUpdateSpiff } from "../../data/spiffs/mutations";
import type { Spiff } from "../../data/spiffs/queries";
import { date } from "../../lib/format";
import { today } from "../../lib/periods";
import { ConfirmModal } from "../../ui/ConfirmModal";

/**
 * Ends a running SPIFF today by moving its `ends_on` to today (PATCH). Not `active: false`: switching
 * it off would also take back the pending SPIFF lines of deals that already closed in the window,
 * where ending it keeps what was earned up to today and stops only deals closing later.
 */
export function EndSpiffDialog({
  spiff,
  onEnded,
  onClose,
}: {
  spiff: Spiff;
  onEnded: (written: Schemas["SpiffWritten"]) => void;
  onClose: () => void;
}) {
  const update = useUpdateSpiff();
  const endsOn = today();
  return (
    <ConfirmModal
      opened
      title={`End ${spiff.name} today?`}
      confirmLabel="End it today"
      destructive
      pending={update.isPending}
      error={update.error}
      onConfirm={() => update.mutate({ id: spiff.id, body: { ends_on: endsOn } }, { onSuccess: onEnded })}
      onClose={onClose}
    >
      {`Its last day becomes ${date(endsOn)} (was ${date(spiff.ends_on)}). Deals closing today or earlier keep their SPIFF lines; deals closing later no longer earn it. Pending deals after today are recalculated.`}
    </ConfirmModal>
  );
}
