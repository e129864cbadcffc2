import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useDeleteSubscription } from "../../data/webhooks/mutations";
import type { Subscription } from "../../data/webhooks/queries";
import { ActionError } from "../../ui/ActionError";

/** Delete, after a confirmation: the subscription and its delivery log go. */
export function DeleteSubscriptionDialog({
  subscription,
  opened,
  onClose,
  onDeleted,
}: {
  subscription: Subscription;
  opened: boolean;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const remove = useDeleteSubscription(subscription.id);
  return (
    <Modal opened={opened} onClose={onClose} title="Delete this subscription?">
      <Stack>
        <Text size="sm" style={{ overflowWrap: "anywhere" }}>
          {subscription.url} stops receiving events, and its delivery log is deleted with it. To pause it instead,
          disable it.
        </Text>
        <ActionError error={remove.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={remove.isPending}>
            Keep it
          </Button>
          <Button
            color="red.9"
            loading={remove.isPending}
            onClick={() => remove.mutate(undefined, { onSuccess: onDeleted })}
          >
            Delete subscription
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
