import { Button, Stack } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { useState } from "react";
import { type ApiKey, apiKeysQuery } from "../../data/api-keys/queries";
import { DataTable, listOf } from "../../ui/DataTable";
import { PageHeader } from "../../ui/PageHeader";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { CreateKeyDialog } from "./CreateKeyDialog";
import { type KeyAction, keyColumns } from "./KeyTable";
import { McpAccessDialog } from "./McpAccessDialog";
import { RevokeKeyDialog } from "./RevokeKeyDialog";
import { RotateKeyDialog } from "./RotateKeyDialog";

const route = getRouteApi("/signed-in/api-keys");
const API_KEYS_PAGE_SIZE = 25;

/** The deployment's API keys (admin): list, create, rotate with grace, revoke; MCP access as the owner set it. */
export function ApiKeysPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const keys = useQuery({
    ...apiKeysQuery({ page: search.page ?? 1, per_page: API_KEYS_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const [creating, setCreating] = useState(false);
  const [acting, setActing] = useState<{ action: KeyAction; key: ApiKey } | null>(null);
  useRenderedMark(keys.isSuccess);
  const on = (action: KeyAction) => (acting?.action === action ? acting.key : null);
  const done = () => setActing(null);

  return (
    <Stack gap="md" maw={1280}>
      <PageHeader title="API keys" action={<Button onClick={() => setCreating(true)}>Create key</Button>}>
        Keys let programs call the API and assistants use MCP. A key is shown once, when it is made.
      </PageHeader>
      <DataTable
        label="API keys"
        testId="api-keys-table"
        minWidth={900}
        narrowMinWidth={0}
        table={{ striped: true, verticalSpacing: "sm" }}
        columns={keyColumns(keys.data?.data ?? [], (action, key) => setActing({ action, key }))}
        rowProps={(key) => ({ "data-key-id": key.id })}
        loading="Loading API keys"
        empty={{ title: "No API keys", children: "Create one for each program that calls the API." }}
        {...listOf(keys, {
          noun: ["key", "keys"],
          onPage: (page) => void navigate({ search: { page } }),
        })}
      />
      <CreateKeyDialog opened={creating} onClose={() => setCreating(false)} />
      <RotateKeyDialog apiKey={on("rotate")} onClose={done} />
      <RevokeKeyDialog apiKey={on("revoke")} onClose={done} />
      <McpAccessDialog apiKey={on("mcp")} onClose={done} />
    </Stack>
  );
}
