import { Title } from "@mantine/core";

// TODO(#17): not built yet.
export function WhatIfPage() {
  return <Title order={2}>What-if</Title>;
}
