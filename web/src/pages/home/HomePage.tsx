import { Stack, Title } from "@mantine/core";
import { useRouteContext } from "@tanstack/react-router";
import { AcknowledgementPrompt } from "./AcknowledgementPrompt";
import { AdminHome } from "./AdminHome";
import { FinanceHome } from "./FinanceHome";
import { ManagerHome } from "./ManagerHome";
import { PersonHome } from "./PersonHome";

/**
 * The signed-in person's home: a rep's own commissions; a manager's team, what waits for them, then
 * their own; what finance owes; an admin's setup checklist, then task inbox.
 */
export function HomePage() {
  const { session } = useRouteContext({ from: "/signed-in" });
  const { role, id } = session.user;
  if (role === "finance" || role === "admin") {
    return (
      <Stack gap="lg">
        <Title order={1} size="h2">
          {role === "finance" ? "What is owed" : "Your tasks"}
        </Title>
        <AcknowledgementPrompt />
        {role === "finance" ? <FinanceHome /> : <AdminHome />}
      </Stack>
    );
  }
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        Your commissions
      </Title>
      <AcknowledgementPrompt />
      {role === "manager" && <ManagerHome managerId={id} />}
      <PersonHome userId={id} />
    </Stack>
  );
}
