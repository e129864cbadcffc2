import { Code, Text } from "@mantine/core";
import { useRevokeKey } from "../../data/api-keys/mutations";
import type { ApiKey } from "../../data/api-keys/queries";
import { ConfirmModal } from "../../ui/ConfirmModal";

/** Revoke, after a confirmation: it cannot be undone, and it bites on the key's next request. */
export function RevokeKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  return apiKey && <Revoke apiKey={apiKey} onClose={onClose} />;
}

function Revoke({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const revoke = useRevokeKey(apiKey.id);
  return (
    <ConfirmModal
      opened
      title={`Revoke “${apiKey.name}”?`}
      confirmLabel="Revoke key"
      cancelLabel="Keep it"
      destructive
      pending={revoke.isPending}
      error={revoke.error}
      onConfirm={() => revoke.mutate(undefined, { onSuccess: onClose })}
      onClose={onClose}
    >
      <Text size="sm">
        The key <Code>{apiKey.prefix}</Code> ({apiKey.scope}) stops working on its next request: programs using it get
        401. This cannot be undone; to replace a key without a gap, rotate it instead.
      </Text>
    </ConfirmModal>
  );
}
