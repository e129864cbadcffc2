import { Badge, Button, Code, Group, Text, VisuallyHidden } from "@mantine/core";
import type { ApiKey } from "../../data/api-keys/queries";
import { dateTime } from "../../lib/format";
import type { Column } from "../../ui/DataTable";
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

/** The keys' columns: what the API gives about each (never the raw key), and what may be done with it. */
export function keyColumns(keys: ApiKey[], onAction: (action: KeyAction, key: ApiKey) => void): Column<ApiKey>[] {
  const replacedBy = new Map(keys.filter((k) => k.replaces).map((k) => [k.replaces!, k.id]));
  const prefixOf = new Map(keys.map((k) => [k.id, k.prefix]));
  const stateOf = (key: ApiKey) => keyState(key, replacedBy.get(key.id));
  return [
    {
      header: "Name and key",
      id: "name",
      cell: (key) => (
        <>
          <Text size="sm" fw={600}>
            {key.name}
          </Text>
          <Code data-col="prefix">{key.prefix}</Code>
          {key.replaces && (
            <Text size="xs" c="gray.7">
              replaces {prefixOf.get(key.replaces) ?? key.replaces}
            </Text>
          )}
        </>
      ),
    },
    { header: "Scope", id: "scope", cell: (key) => key.scope },
    // A phone keeps the key, its scope and state, and the actions.
    {
      header: "Created",
      id: "created",
      visibleFrom: "sm",
      props: () => ({ miw: 110 }),
      cell: (key) => dateTime(key.created_at),
    },
    {
      header: "Last used",
      id: "last-used",
      visibleFrom: "sm",
      props: () => ({ miw: 110 }),
      cell: (key) => (key.last_used_at ? dateTime(key.last_used_at) : "Never"),
    },
    {
      header: "Status",
      id: "status",
      props: () => ({ miw: { base: 0, sm: 150 } }),
      cell: (key) => <StateText state={stateOf(key)} />,
    },
    {
      header: "MCP tools",
      visibleFrom: "sm",
      cell: (key) => {
        const usable = isUsable(stateOf(key));
        return (
          <>
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
          </>
        );
      },
    },
    {
      header: <VisuallyHidden>Actions</VisuallyHidden>,
      cell: (key) =>
        isUsable(stateOf(key)) && (
          <Group gap={6} justify="flex-end">
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
        ),
    },
  ];
}
