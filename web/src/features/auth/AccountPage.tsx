import { Title } from "@mantine/core";

// TODO(#17): not built yet.
export function AccountPage() {
  return <Title order={2}>Account</Title>;
}
