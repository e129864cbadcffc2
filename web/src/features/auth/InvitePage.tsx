import { Title } from "@mantine/core";

// TODO(#17): not built yet.
export function InvitePage() {
  return <Title order={2}>Accept your invitation</Title>;
}
