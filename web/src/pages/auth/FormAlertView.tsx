import { Alert, Text } from "@mantine/core";
import type { FormAlert } from "./reset-problems";

/** A refusal above a sign-in form's fields: the server's message, when to try again, the request id. */
export function FormAlertView({ alert }: { alert: FormAlert | undefined }) {
  if (!alert) return null;
  return (
    <Alert color="red" role="alert">
      {alert.message}
      {alert.retry && <Text size="sm">{alert.retry}</Text>}
      {alert.requestId && (
        <Text size="xs" c="gray.7">
          Request id: <code>{alert.requestId}</code>
        </Text>
      )}
    </Alert>
  );
}
