import type { Deal } from "../../data/deals/queries";
import { ConfirmModal } from "../../ui/ConfirmModal";
import { approvalQuestion } from "./approval-question";

/**
 * Asks before approving (the bar's button, a row's, or the "a" key): the count, the exact total of
 * their commissions, and that approval locks the lines. Enter confirms (the button has the focus).
 */
export function ApproveDialog(props: { deals: readonly Deal[] | null; onConfirm: () => void; onClose: () => void }) {
  const { deals, onConfirm, onClose } = props;
  const count = deals?.length ?? 0;
  return (
    <ConfirmModal
      opened={count > 0}
      title={count === 1 ? "Approve this deal?" : `Approve ${count} deals?`}
      confirmLabel={count === 1 ? "Approve deal" : `Approve ${count} deals`}
      pending={false}
      error={null}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      {deals ? approvalQuestion(deals) : ""}
    </ConfirmModal>
  );
}
