import { Button, Group, Pagination, Stack, Text, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { type ApiKey, apiKeysQuery } from "../../data/api-keys/queries";
import { EmptyState, ErrorState, LoadingState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { CreateKeyDialog } from "./CreateKeyDialog";
import { type KeyAction, KeyTable } from "./KeyTable";
import { McpAccessDialog } from "./McpAccessDialog";
import { RevokeKeyDialog } from "./RevokeKeyDialog";
import { RotateKeyDialog } from "./RotateKeyDialog";

const API_KEYS_PAGE_SIZE = 25;

/** The deployment's API keys (admin): list, create, rotate with grace, revoke; MCP access as the owner set it. */
export function ApiKeysPage() {
  const [page, setPage] = useState(1);
  const keys = useQuery({ ...apiKeysQuery({ page, per_page: API_KEYS_PAGE_SIZE }), placeholderData: keepPreviousData });
  const [creating, setCreating] = useState(false);
  const [acting, setActing] = useState<{ action: KeyAction; key: ApiKey } | null>(null);
  useRenderedMark(keys.isSuccess);
  const on = (action: KeyAction) => (acting?.action === action ? acting.key : null);
  const done = () => setActing(null);

  return (
    <Stack gap="md" maw={1280}>
      <Group justify="space-between" align="end">
        <div>
          <Title order={2}>API keys</Title>
          <Text size="sm" c="gray.7">
            Keys let programs call the API and assistants use MCP. A key is shown once, when it is made.
          </Text>
        </div>
        <Button onClick={() => setCreating(true)}>Create key</Button>
      </Group>
      {keys.isPending && <LoadingState label="Loading API keys" />}
      {keys.isError && <ErrorState error={keys.error} retry={() => void keys.refetch()} />}
      {keys.isSuccess && keys.data.meta.total === 0 && (
        <EmptyState title="No API keys">Create one for each program that calls the API.</EmptyState>
      )}
      {keys.isSuccess && keys.data.meta.total > 0 && (
        <>
          <KeyTable keys={keys.data.data} onAction={(action, key) => setActing({ action, key })} />
          <Group justify="space-between">
            <Text size="sm" c="gray.7">
              {keys.data.meta.total} key{keys.data.meta.total === 1 ? "" : "s"}
            </Text>
            {keys.data.meta.total > API_KEYS_PAGE_SIZE && (
              <Pagination
                total={Math.ceil(keys.data.meta.total / API_KEYS_PAGE_SIZE)}
                value={page}
                onChange={setPage}
                size="sm"
                aria-label="API key pages"
              />
            )}
          </Group>
        </>
      )}
      <CreateKeyDialog opened={creating} onClose={() => setCreating(false)} />
      <RotateKeyDialog apiKey={on("rotate")} onClose={done} />
      <RevokeKeyDialog apiKey={on("revoke")} onClose={done} />
      <McpAccessDialog apiKey={on("mcp")} onClose={done} />
    </Stack>
  );
}
