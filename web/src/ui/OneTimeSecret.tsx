import { Alert, Button, Code, Group, Modal, Stack, Text } from "@mantine/core";
import { useClipboard } from "@mantine/hooks";
import { type ReactNode, useState } from "react";

const STORE_IT =
  "Once you close this, the console and the API show only its first or last characters. Store it in your secret manager.";

/**
 * A secret the API returns once (a new API key, a webhook signing secret, an invitation link): shown
 * here, in the one component's state that holds it, with a copy button and a plain warning. Whoever
 * renders it keeps the secret in React state only (never a query or mutation cache, never a log), and
 * drops it on `onDone`.
 */
export function OneTimeSecret({
  label,
  secret,
  children,
  onDone,
  advice = STORE_IT,
  doneLabel = "I have stored it",
}: {
  /** What the secret is: "API key", "Signing secret", "Invitation link". */
  label: string;
  secret: string;
  /** What to do with it, in a sentence or two. */
  children?: ReactNode;
  onDone: () => void;
  /** What becomes of it after this dialog. */
  advice?: string;
  doneLabel?: string;
}) {
  const clipboard = useClipboard({ timeout: 2500 });
  return (
    <Stack gap="sm">
      <Alert color="indigo" title="Copy it now: you will not see it again" role="status">
        This is the only time the {label.toLowerCase()} is shown. {advice}
      </Alert>
      {children && <Text size="sm">{children}</Text>}
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Code
        block
        data-testid="one-time-secret"
        style={{ overflowWrap: "anywhere", whiteSpace: "pre-wrap", userSelect: "all" }}
      >
        {secret}
      </Code>
      {clipboard.error && (
        <Text size="sm" c="red.9" role="alert">
          The browser did not allow copying: select the text above and copy it yourself.
        </Text>
      )}
      <Group justify="flex-end">
        <Button variant="light" onClick={() => clipboard.copy(secret)}>
          {clipboard.copied ? "Copied" : `Copy ${label.toLowerCase()}`}
        </Button>
        <Button onClick={onDone}>{doneLabel}</Button>
      </Group>
    </Stack>
  );
}

/**
 * A dialog that asks for what answers with a secret (a new key, a rotation), then shows it once. What
 * was revealed lives in this dialog's state only and goes when it closes; `onClose` hears it (the new
 * subscription's id), or null when nothing was made.
 */
export function SecretModal<Shown>(props: {
  opened: boolean;
  onClose: (shown: Shown | null) => void;
  title: (shown: Shown | null) => string;
  ask: (reveal: (shown: Shown) => void, close: () => void) => ReactNode;
  show: (shown: Shown, close: () => void) => ReactNode;
}) {
  const [shown, setShown] = useState<Shown | null>(null);
  const close = () => {
    setShown(null);
    props.onClose(shown);
  };
  return (
    <Modal opened={props.opened} onClose={close} title={props.title(shown)} size="lg" closeOnClickOutside={!shown}>
      {props.opened && (shown ? props.show(shown, close) : props.ask(setShown, close))}
    </Modal>
  );
}
