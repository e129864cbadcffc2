import { Title } from "@mantine/core";

// TODO(#17): not built yet.
export function DisputesPage() {
  return <Title order={2}>My disputes</Title>;
}
