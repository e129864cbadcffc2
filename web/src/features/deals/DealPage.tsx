import { Title } from "@mantine/core";

// TODO(#17): not built yet.
export function DealPage() {
  return <Title order={2}>Deal</Title>;
}
