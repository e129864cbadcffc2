import { Button, Code, Group, Stack, Text } from "@mantine/core";
import { useRotateSecret } from "../../data/webhooks/mutations";
import type { Subscription } from "../../data/webhooks/queries";
import { dateTime } from "../../lib/format";
import { ActionError } from "../../ui/ActionError";
import { OneTimeSecret, SecretModal } from "../../ui/OneTimeSecret";

/** Rotate the signing secret, after a confirmation → the new secret once; the old one signs too for 24 h. */
export function RotateSecretDialog(props: { subscription: Subscription; opened: boolean; onClose: () => void }) {
  return (
    <SecretModal<{ secret: string; previousUntil: string | null }>
      opened={props.opened}
      onClose={props.onClose}
      title={(rotated) => (rotated ? "The new signing secret" : "Rotate the signing secret?")}
      ask={(reveal, close) => (
        <Confirm
          subscription={props.subscription}
          onRotated={(secret, after) => reveal({ secret, previousUntil: after.previous_secret_expires_at })}
          onCancel={close}
        />
      )}
      show={(rotated, close) => (
        <OneTimeSecret label="Signing secret" secret={rotated.secret} onDone={close}>
          {rotated.previousUntil
            ? `Until ${dateTime(rotated.previousUntil)} every delivery is signed with the old secret too, so your receiver can switch without losing events.`
            : "Switch your receiver to it."}
        </OneTimeSecret>
      )}
    />
  );
}

function Confirm({
  subscription,
  onRotated,
  onCancel,
}: {
  subscription: Subscription;
  onRotated: (secret: string, after: Subscription) => void;
  onCancel: () => void;
}) {
  const rotate = useRotateSecret(subscription.id, onRotated);
  return (
    <Stack>
      <Text size="sm">
        A new secret replaces <Code>{subscription.secret_hint}</Code>. For 24 hours deliveries carry a signature with
        each, then only the new one.
      </Text>
      <ActionError error={rotate.error} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} disabled={rotate.isPending}>
          Cancel
        </Button>
        <Button onClick={() => rotate.mutate()} loading={rotate.isPending}>
          Rotate secret
        </Button>
      </Group>
    </Stack>
  );
}
