import { Button, Code, Group, Modal, Stack, Text } from "@mantine/core";
import { useRevokeKey } from "../../data/api-keys/mutations";
import type { ApiKey } from "../../data/api-keys/queries";
import { ActionError } from "../../ui/ActionError";

/** Revoke, after a confirmation: it cannot be undone, and it bites on the key's next request. */
export function RevokeKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  return (
    <Modal opened={apiKey !== null} onClose={onClose} title={`Revoke “${apiKey?.name ?? ""}”?`}>
      {apiKey && <Revoke apiKey={apiKey} onClose={onClose} />}
    </Modal>
  );
}

function Revoke({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const revoke = useRevokeKey(apiKey.id);
  return (
    <Stack>
      <Text size="sm">
        The key <Code>{apiKey.prefix}</Code> ({apiKey.scope}) stops working on its next request: programs using it get
        401. This cannot be undone; to replace a key without a gap, rotate it instead.
      </Text>
      <ActionError error={revoke.error} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={revoke.isPending}>
          Keep it
        </Button>
        <Button
          color="red.9"
          loading={revoke.isPending}
          onClick={() => revoke.mutate(undefined, { onSuccess: onClose })}
        >
          Revoke key
        </Button>
      </Group>
    </Stack>
  );
}
