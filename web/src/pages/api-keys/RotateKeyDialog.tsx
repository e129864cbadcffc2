import { Button, Code, Group, Modal, Select, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { useRotateKey } from "../../data/api-keys/mutations";
import type { ApiKey } from "../../data/api-keys/queries";
import { fieldErrors } from "../../lib/field-errors";
import { dateTime } from "../../lib/format";
import { ActionError } from "../../ui/ActionError";
import { OneTimeSecret } from "../../ui/OneTimeSecret";

const GRACE = [
  { value: "0", label: "Stops at once" },
  { value: "900", label: "15 minutes" },
  { value: "3600", label: "1 hour" },
  { value: "21600", label: "6 hours" },
  { value: "86400", label: "24 hours (the most)" },
];

/** Rotate: a grace period for the old key → the new key once, and when the old one stops. */
export function RotateKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  const [secret, setSecret] = useState<string | null>(null);
  const close = () => {
    setSecret(null);
    onClose();
  };
  return (
    <Modal
      opened={apiKey !== null}
      onClose={close}
      title={secret ? "The replacement key" : `Rotate “${apiKey?.name ?? ""}”`}
      size="lg"
      closeOnClickOutside={!secret}
    >
      {apiKey && <Rotate apiKey={apiKey} secret={secret} onSecret={setSecret} onClose={close} />}
    </Modal>
  );
}

function Rotate({
  apiKey,
  secret,
  onSecret,
  onClose,
}: {
  apiKey: ApiKey;
  secret: string | null;
  onSecret: (key: string) => void;
  onClose: () => void;
}) {
  const [grace, setGrace] = useState("3600");
  const rotate = useRotateKey(apiKey.id, onSecret);
  const errors = fieldErrors(rotate.error);

  if (secret) {
    const old = rotate.data?.old;
    return (
      <OneTimeSecret label="API key" secret={secret} onDone={onClose}>
        It has the same name and scope; its MCP access starts at read again.{" "}
        {old && (
          <span data-testid="grace-end">
            The old key <Code>{old.prefix}</Code>{" "}
            {old.expires_at ? `keeps working until ${dateTime(old.expires_at)}.` : "keeps working."}
          </span>
        )}
      </OneTimeSecret>
    );
  }

  return (
    <Stack>
      <Text size="sm">
        A new key with the same name (<strong>{apiKey.name}</strong>) and scope ({apiKey.scope}) replaces{" "}
        <Code>{apiKey.prefix}</Code>. Give the programs that use it time to switch.
      </Text>
      <Select
        label="The old key keeps working for"
        data={GRACE}
        value={grace}
        onChange={(value) => value && setGrace(value)}
        allowDeselect={false}
        error={errors.grace_period_seconds}
        comboboxProps={{ withinPortal: true }}
      />
      {!errors.grace_period_seconds && <ActionError error={rotate.error} />}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={rotate.isPending}>
          Cancel
        </Button>
        <Button onClick={() => rotate.mutate(Number(grace))} loading={rotate.isPending}>
          Rotate key
        </Button>
      </Group>
    </Stack>
  );
}
