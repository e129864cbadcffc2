import { Button, Code, Group, Modal, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { useRotateSecret } from "../../data/webhooks/mutations";
import type { Subscription } from "../../data/webhooks/queries";
import { dateTime } from "../../lib/format";
import { ActionError } from "../../ui/ActionError";
import { OneTimeSecret } from "../../ui/OneTimeSecret";

/** Rotate the signing secret, after a confirmation → the new secret once; the old one signs too for 24 h. */
export function RotateSecretDialog({
  subscription,
  opened,
  onClose,
}: {
  subscription: Subscription;
  opened: boolean;
  onClose: () => void;
}) {
  const [rotated, setRotated] = useState<{ secret: string; previousUntil: string | null } | null>(null);
  const close = () => {
    setRotated(null);
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={rotated ? "The new signing secret" : "Rotate the signing secret?"}
      size="lg"
      closeOnClickOutside={!rotated}
    >
      {opened &&
        (rotated ? (
          <OneTimeSecret label="Signing secret" secret={rotated.secret} onDone={close}>
            {rotated.previousUntil
              ? `Until ${dateTime(rotated.previousUntil)} every delivery is signed with the old secret too, so your receiver can switch without losing events.`
              : "Switch your receiver to it."}
          </OneTimeSecret>
        ) : (
          <Confirm
            subscription={subscription}
            onRotated={(secret, after) => setRotated({ secret, previousUntil: after.previous_secret_expires_at })}
            onCancel={close}
          />
        ))}
    </Modal>
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
