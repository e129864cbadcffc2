import { Title } from "@mantine/core";

// TODO(#17): not built yet.
export function PersonPage() {
  return <Title order={2}>Person</Title>;
}
