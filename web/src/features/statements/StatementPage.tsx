import { Title } from "@mantine/core";

// TODO(#17): not built yet.
export function StatementPage() {
  return <Title order={2}>Statement</Title>;
}
