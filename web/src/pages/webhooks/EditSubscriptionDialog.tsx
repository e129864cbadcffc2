import { Modal } from "@mantine/core";
import { useUpdateSubscription } from "../../data/webhooks/mutations";
import type { Subscription } from "../../data/webhooks/queries";
import { SubscriptionForm } from "./SubscriptionForm";

/** Edit the URL, events and description; the server checks the URL again. */
export function EditSubscriptionDialog({
  subscription,
  opened,
  onClose,
}: {
  subscription: Subscription;
  opened: boolean;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Edit subscription" size="lg">
      {opened && <Edit subscription={subscription} onClose={onClose} />}
    </Modal>
  );
}

function Edit({ subscription, onClose }: { subscription: Subscription; onClose: () => void }) {
  const update = useUpdateSubscription(subscription.id);
  return (
    <SubscriptionForm
      initial={subscription}
      submitLabel="Save"
      pending={update.isPending}
      error={update.error}
      onSubmit={(fields) => update.mutate(fields, { onSuccess: onClose })}
      onCancel={onClose}
    />
  );
}
