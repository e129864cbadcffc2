import { Button, Code, Group, List, Modal, Stack, Text } from "@mantine/core";
import { useClipboard } from "@mantine/hooks";
import type { ApiKey } from "../../data/api-keys/queries";
import { grantableLevels, grantCommand, mcpLevel } from "./keyState";

const TOOLS: Record<ApiKey["scope"], string> = {
  read: "list and get deals, users, plans, commissions, SPIFFs; statements; previews",
  write: "also create and update deals and users, open disputes",
  admin: "also approve, reject, resolve disputes, mark paid, adjustments",
};

/**
 * What a key may do over MCP (API.md §9) and how the owner raises it. The console shows the command and
 * never raises it: only the owner CLI grants MCP access (an admin key never can).
 */
export function McpAccessDialog({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  return (
    <Modal opened={apiKey !== null} onClose={onClose} title={`MCP access of “${apiKey?.name ?? ""}”`} size="lg">
      {apiKey && <McpAccess apiKey={apiKey} onClose={onClose} />}
    </Modal>
  );
}

function McpAccess({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const level = mcpLevel(apiKey);
  const grantable = grantableLevels(apiKey);
  return (
    <Stack>
      <Text size="sm" data-testid="mcp-level">
        This key may use <Code>/mcp</Code> with the <strong>{level}</strong> tools ({TOOLS[level]}). Its scope is{" "}
        {apiKey.scope}; the owner granted MCP access <strong>{apiKey.mcp_access}</strong>. An assistant reaches the
        lower of the two.
      </Text>
      {grantable.length > 0 ? (
        <>
          <Text size="sm">
            Only the owner (whoever runs the server) can grant more, with the owner CLI on the server's machine. The
            console never raises it.
          </Text>
          <List spacing="xs" listStyleType="none" ms={0}>
            {grantable.map((grant) => (
              <List.Item key={grant}>
                <GrantCommand command={grantCommand(apiKey.id, grant)} level={grant} />
              </List.Item>
            ))}
          </List>
          <Text size="xs" c="gray.7">
            From a checkout of the service, run it as <Code>npm run cts -- keys mcp-access …</Code>. The grant is
            recorded in the audit log; a rotated key starts at read again.
          </Text>
        </>
      ) : (
        <Text size="sm">
          {apiKey.scope === "read"
            ? "A read key never reaches more than the read tools: for more, create a key with a wider scope and ask the owner to grant it."
            : "This is all its scope allows."}
        </Text>
      )}
      <Group justify="flex-end">
        <Button onClick={onClose}>Done</Button>
      </Group>
    </Stack>
  );
}

function GrantCommand({ command, level }: { command: string; level: string }) {
  const clipboard = useClipboard();
  return (
    <Group gap="xs" wrap="nowrap" align="center">
      <Code data-testid={`grant-${level}`} style={{ overflowWrap: "anywhere" }}>
        {command}
      </Code>
      <Button
        size="compact-xs"
        variant="light"
        onClick={() => clipboard.copy(command)}
        aria-label={`Copy the ${level} command`}
      >
        {clipboard.copied ? "Copied" : "Copy"}
      </Button>
    </Group>
  );
}
