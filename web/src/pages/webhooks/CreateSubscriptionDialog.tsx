import { Modal } from "@mantine/core";
import { useState } from "react";
import { type Reveal, useCreateSubscription } from "../../data/webhooks/mutations";
import { OneTimeSecret } from "../../ui/OneTimeSecret";
import { SubscriptionForm } from "./SubscriptionForm";

/** A new subscription → its signing secret, once. */
export function CreateSubscriptionDialog({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  /** After the secret was shown and the dialog closed: the new subscription's id. */
  onCreated: (id: string) => void;
}) {
  const [created, setCreated] = useState<{ secret: string; id: string } | null>(null);
  const secret = created?.secret;
  const close = () => {
    setCreated(null);
    onClose();
    if (created) onCreated(created.id);
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={secret ? "Your signing secret" : "New webhook subscription"}
      size="lg"
      closeOnClickOutside={!secret}
    >
      {opened &&
        (secret ? (
          <OneTimeSecret label="Signing secret" secret={secret} onDone={close}>
            Verify every delivery's <code>webhook-signature</code> with it (Standard Webhooks; the{" "}
            <code>standardwebhooks</code> and <code>svix</code> libraries accept it as it is).
          </OneTimeSecret>
        ) : (
          <CreateForm
            onSecret={(value, subscription) => setCreated({ secret: value, id: subscription.id })}
            onCancel={close}
          />
        ))}
    </Modal>
  );
}

function CreateForm({ onSecret, onCancel }: { onSecret: Reveal; onCancel: () => void }) {
  const create = useCreateSubscription(onSecret);
  return (
    <SubscriptionForm
      submitLabel="Create subscription"
      pending={create.isPending}
      error={create.error}
      onSubmit={(fields) => create.mutate(fields)}
      onCancel={onCancel}
    />
  );
}
