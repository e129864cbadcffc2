import { Alert, Text } from "@mantine/core";
import { ApiError } from "../api/errors";

/** A write the API refused, for what no form field names: its message and the request id to quote. */
export function ActionError({ error }: { error: unknown }) {
  if (!error) return null;
  const requestId = error instanceof ApiError ? error.requestId : null;
  return (
    <Alert color="red" role="alert">
      {error instanceof Error ? error.message : "Something went wrong."}
      {requestId && (
        <Text size="xs" c="gray.7">
          Request id: <code>{requestId}</code>
        </Text>
      )}
    </Alert>
  );
}
