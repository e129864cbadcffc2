import { Alert, Button, Code, Group, Stack, Text } from "@mantine/core";
import { useClipboard } from "@mantine/hooks";

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
  children?: React.ReactNode;
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
