import { Badge, Button, Code, Group, Table, Text, VisuallyHidden } from "@mantine/core";
import { dateTime } from "../../../lib/format";
import { ScrollTable } from "../../../ui/ScrollTable";
import { isUsable, type KeyState, keyState, mcpLevel } from "../keyState";
import type { ApiKey } from "../queries";

export type KeyAction = "rotate" | "revoke" | "mcp";

function StateText({ state }: { state: KeyState }) {
  switch (state.kind) {
    case "revoked":
      return <Badge color="red.9">Revoked {dateTime(state.at)}</Badge>;
    case "expired":
      return <Badge color="gray.7">Expired {dateTime(state.at)}</Badge>;
    case "grace":
      return (
        <Text size="sm">
          <Badge color="orange.9" component="span">
            Rotated
          </Badge>{" "}
          works until {dateTime(state.until)}
        </Text>
      );
    case "expires":
      return <Text size="sm">Expires {dateTime(state.at)}</Text>;
    case "active":
      return <Text size="sm">No expiry</Text>;
  }
}

/** The keys, one a row: what the API gives about each (never the raw key), and what may be done with it. */
export function KeyTable({ keys, onAction }: { keys: ApiKey[]; onAction: (action: KeyAction, key: ApiKey) => void }) {
  const replacedBy = new Map(keys.filter((k) => k.replaces).map((k) => [k.replaces!, k.id]));
  return (
    <ScrollTable minWidth={1040} label="API keys">
      <Table striped verticalSpacing="sm" aria-label="API keys" data-testid="api-keys-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col">Scope</Table.Th>
            <Table.Th scope="col">Key</Table.Th>
            <Table.Th scope="col">Created</Table.Th>
            <Table.Th scope="col">Last used</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            <Table.Th scope="col">MCP tools</Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((key) => {
            const state = keyState(key, replacedBy.get(key.id));
            const usable = isUsable(state);
            return (
              <Table.Tr key={key.id} data-key-id={key.id}>
                <Table.Td data-col="name">
                  <Text size="sm" fw={600}>
                    {key.name}
                  </Text>
                  <Text size="xs" c="gray.7">
                    {key.id}
                    {key.replaces && ` · replaces ${key.replaces}`}
                  </Text>
                </Table.Td>
                <Table.Td data-col="scope">{key.scope}</Table.Td>
                <Table.Td data-col="prefix">
                  <Code>{key.prefix}</Code>
                </Table.Td>
                <Table.Td data-col="created">{dateTime(key.created_at)}</Table.Td>
                <Table.Td data-col="last-used">{key.last_used_at ? dateTime(key.last_used_at) : "Never"}</Table.Td>
                <Table.Td data-col="status">
                  <StateText state={state} />
                </Table.Td>
                <Table.Td data-col="mcp">{usable ? mcpLevel(key) : "none"}</Table.Td>
                <Table.Td>
                  {usable && (
                    <Group gap={6} wrap="nowrap" justify="flex-end">
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        onClick={() => onAction("mcp", key)}
                        aria-label={`MCP access of ${key.name}`}
                      >
                        MCP access
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="light"
                        onClick={() => onAction("rotate", key)}
                        aria-label={`Rotate ${key.name}`}
                      >
                        Rotate
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="light"
                        color="red.9"
                        onClick={() => onAction("revoke", key)}
                        aria-label={`Revoke ${key.name}`}
                      >
                        Revoke
                      </Button>
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
