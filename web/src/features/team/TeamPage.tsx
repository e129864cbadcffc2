import { Title } from "@mantine/core";

// TODO(#17): not built yet.
export function TeamPage() {
  return <Title order={2}>Team</Title>;
}
