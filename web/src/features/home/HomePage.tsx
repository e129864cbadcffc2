import { Title } from "@mantine/core";

// TODO(#17): not built yet.
export function HomePage() {
  return <Title order={2}>Home</Title>;
}
