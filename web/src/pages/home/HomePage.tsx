import { Stack, Title } from "@mantine/core";
import { useRouteContext } from "@tanstack/react-router";
import { PersonHome } from "./PersonHome";

/** The signed-in person's own home. */
export function HomePage() {
  const { session } = useRouteContext({ from: "/signed-in" });
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        Your commissions
      </Title>
      <PersonHome userId={session.user.id} />
    </Stack>
  );
}
