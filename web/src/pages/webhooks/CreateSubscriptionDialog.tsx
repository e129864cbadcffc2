import { useCreateSubscription } from "../../data/webhooks/mutations";
import { OneTimeSecret, SecretModal } from "../../ui/OneTimeSecret";
import { SubscriptionForm } from "./SubscriptionForm";

/** A new subscription → its signing secret, once. */
export function CreateSubscriptionDialog(props: {
  opened: boolean;
  onClose: () => void;
  /** After the secret was shown and the dialog closed: the new subscription's id. */
  onCreated: (id: string) => void;
}) {
  return (
    <SecretModal<{ secret: string; id: string }>
      opened={props.opened}
      onClose={(created) => {
        props.onClose();
        if (created) props.onCreated(created.id);
      }}
      title={(created) => (created ? "Your signing secret" : "New webhook subscription")}
      ask={(reveal, close) => (
        <CreateForm onSecret={(secret, subscription) => reveal({ secret, id: subscription.id })} onCancel={close} />
      )}
      show={({ secret }, close) => (
        <OneTimeSecret label="Signing secret" secret={secret} onDone={close}>
          Verify every delivery's <code>webhook-signature</code> with it (Standard Webhooks; the{" "}
          <code>standardwebhooks</code> and <code>svix</code> libraries accept it as it is).
        </OneTimeSecret>
      )}
    />
  );
}

function CreateForm({
  onSecret,
  onCancel,
}: {
  onSecret: Parameters<typeof useCreateSubscription>[0];
  onCancel: () => void;
}) {
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
