import { Alert, Button, CopyButton, Group, Stack, Text, TextInput } from "@mantine/core";

/**
 * A secret the server shows exactly once (an invitation link, a key): read-only, with a copy button.
 * The caller keeps it in component state only (never a query cache) and drops it when the dialog closes.
 */
export function OneTimeSecret({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <Stack gap="xs">
      <Alert color="yellow" title="Shown once">
        <Text size="sm">{note}</Text>
      </Alert>
      <Group align="end" wrap="nowrap">
        <TextInput
          label={label}
          value={value}
          readOnly
          flex={1}
          onFocus={(e) => e.currentTarget.select()}
          data-testid="one-time-secret"
        />
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button onClick={copy} color={copied ? "teal" : undefined} variant={copied ? "filled" : "light"}>
              {copied ? "Copied" : "Copy"}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
