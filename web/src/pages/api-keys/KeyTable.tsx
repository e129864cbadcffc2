import { Badge, Button, Code, Group, Table, Text, VisuallyHidden } from "@mantine/core";
import type { ApiKey } from "../../data/api-keys/queries";
import { dateTime } from "../../lib/format";
import { ScrollTable } from "../../ui/ScrollTable";
import { isUsable, type KeyState, keyState, mcpLevel } from "./keyState";

export type KeyAction = "rotate" | "revoke" | "mcp";

function StateText({ state }: { state: KeyState }) {
  switch (state.kind) {
    case "revoked":
      return <Flagged color="red.9" flag="Revoked" text={dateTime(state.at)} />;
    case "expired":
      return <Flagged color="gray.7" flag="Expired" text={dateTime(state.at)} />;
    case "grace":
      return <Flagged color="grape.9" flag="Rotated" text={`works until ${dateTime(state.until)}`} />;
    case "expires":
      return <Text size="sm">Expires {dateTime(state.at)}</Text>;
    case "active":
      return <Text size="sm">No expiry</Text>;
  }
}

/** A badge and what it means, one above the other; the badge never shrinks to an ellipsis. */
function Flagged({ color, flag, text }: { color: string; flag: string; text: string }) {
  return (
    <Text size="sm">
      <Badge color={color} component="span" style={{ minWidth: "max-content" }}>
        {flag}
      </Badge>{" "}
      <br />
      {text}
    </Text>
  );
}

/** The keys, one a row: what the API gives about each (never the raw key), and what may be done with it. */
export function KeyTable({ keys, onAction }: { keys: ApiKey[]; onAction: (action: KeyAction, key: ApiKey) => void }) {
  const replacedBy = new Map(keys.filter((k) => k.replaces).map((k) => [k.replaces!, k.id]));
  const prefixOf = new Map(keys.map((k) => [k.id, k.prefix]));
  return (
    <ScrollTable minWidth={900} label="API keys">
      <Table striped verticalSpacing="sm" aria-label="API keys" data-testid="api-keys-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Name and key</Table.Th>
            <Table.Th scope="col">Scope</Table.Th>
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
                  <Code data-col="prefix">{key.prefix}</Code>
                  {key.replaces && (
                    <Text size="xs" c="gray.7">
                      replaces {prefixOf.get(key.replaces) ?? key.replaces}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td data-col="scope">{key.scope}</Table.Td>
                <Table.Td data-col="created" miw={110}>
                  {dateTime(key.created_at)}
                </Table.Td>
                <Table.Td data-col="last-used" miw={110}>
                  {key.last_used_at ? dateTime(key.last_used_at) : "Never"}
                </Table.Td>
                <Table.Td data-col="status" miw={150}>
                  <StateText state={state} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm" data-col="mcp">
                    {usable ? mcpLevel(key) : "none"}
                  </Text>
                  {usable && (
                    <Button
                      size="compact-xs"
                      variant="transparent"
                      px={0}
                      onClick={() => onAction("mcp", key)}
                      aria-label={`MCP access of ${key.name}`}
                    >
                      MCP access
                    </Button>
                  )}
                </Table.Td>
                <Table.Td>
                  {usable && (
                    <Group gap={6} wrap="nowrap" justify="flex-end">
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
