import { Button, Code, Group, Select, Stack, Text } from "@mantine/core";
import { useRef, useState } from "react";
import { useRotateKey } from "../../data/api-keys/mutations";
import type { ApiKey } from "../../data/api-keys/queries";
import { fieldErrors } from "../../lib/field-errors";
import { dateTime } from "../../lib/format";
import { ActionError } from "../../ui/ActionError";
import { OneTimeSecret, SecretModal } from "../../ui/OneTimeSecret";

const GRACE = [
  { value: "0", label: "Stops at once" },
  { value: "900", label: "15 minutes" },
  { value: "3600", label: "1 hour" },
  { value: "21600", label: "6 hours" },
  { value: "86400", label: "24 hours (the most)" },
];

interface Rotated {
  secret: string;
  /** The old key as the API has it after the rotation (its grace end), when it could be read. */
  old?: ApiKey;
}

/** Rotate: a grace period for the old key → the new key once, and when the old one stops. */
export function RotateKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  return (
    <SecretModal<Rotated>
      opened={apiKey !== null}
      onClose={onClose}
      title={(rotated) => (rotated ? "The replacement key" : `Rotate “${apiKey?.name ?? ""}”`)}
      ask={(reveal, close) => apiKey && <Rotate apiKey={apiKey} onRotated={reveal} onCancel={close} />}
      show={({ secret, old }, close) => (
        <OneTimeSecret label="API key" secret={secret} onDone={close}>
          It has the same name and scope; its MCP access starts at read again.{" "}
          {old && (
            <span data-testid="grace-end">
              The old key <Code>{old.prefix}</Code>{" "}
              {old.expires_at ? `keeps working until ${dateTime(old.expires_at)}.` : "keeps working."}
            </span>
          )}
        </OneTimeSecret>
      )}
    />
  );
}

function Rotate(props: { apiKey: ApiKey; onRotated: (rotated: Rotated) => void; onCancel: () => void }) {
  const { apiKey, onRotated, onCancel } = props;
  const [grace, setGrace] = useState("3600");
  // The new key, from the answer to this dialog's state (never a cache), until it is shown.
  const secret = useRef<string | null>(null);
  const rotate = useRotateKey(apiKey.id, (key) => {
    secret.current = key;
  });
  const errors = fieldErrors(rotate.error);
  const run = () =>
    rotate.mutate(Number(grace), {
      // Shown even when reading the old key back failed: the rotation itself happened.
      onSettled: (data) => secret.current && onRotated({ secret: secret.current, old: data?.old }),
    });

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
        <Button variant="default" onClick={onCancel} disabled={rotate.isPending}>
          Cancel
        </Button>
        <Button onClick={run} loading={rotate.isPending}>
          Rotate key
        </Button>
      </Group>
    </Stack>
  );
}
