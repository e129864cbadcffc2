import { Text } from "@mantine/core";
import { useDeleteSubscription } from "../../data/webhooks/mutations";
import type { Subscription } from "../../data/webhooks/queries";
import { ConfirmModal } from "../../ui/ConfirmModal";

/** Delete, after a confirmation: the subscription and its delivery log go. */
export function DeleteSubscriptionDialog(props: {
  subscription: Subscription;
  opened: boolean;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const { subscription, opened, onClose, onDeleted } = props;
  const remove = useDeleteSubscription(subscription.id);
  return (
    <ConfirmModal
      opened={opened}
      title="Delete this subscription?"
      confirmLabel="Delete subscription"
      cancelLabel="Keep it"
      destructive
      pending={remove.isPending}
      error={remove.error}
      onConfirm={() => remove.mutate(undefined, { onSuccess: onDeleted })}
      onClose={onClose}
    >
      <Text size="sm" style={{ overflowWrap: "anywhere" }}>
        {subscription.url} stops receiving events, and its delivery log is deleted with it. To pause it instead, disable
        it.
      </Text>
    </ConfirmModal>
  );
}
