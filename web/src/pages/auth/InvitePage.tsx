import { Alert, Anchor, Button, Center, Paper, Stack, Text, Title } from "@mantine/core";
import { Link } from "@tanstack/react-router";
import { ApiError } from "../../api/errors";
import { useAcceptInvitation } from "../../data/auth/mutations";
import { NewPasswordFields } from "./NewPasswordFields";
import { passwordProblemsOf } from "./passwordRules";
import { usePasswordLink } from "./usePasswordLink";

export function InvitePage() {
  const accept = useAcceptInvitation();
  const { token, password, confirm, setPassword, setConfirm, submitted, submit } = usePasswordLink(accept.mutate);
  const error = accept.error instanceof ApiError ? accept.error : null;
  const problems = passwordProblemsOf(error, "password");

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder p="xl" w="100%" maw={440}>
        <Stack>
          <Title order={1} size="h3">
            Accept your invitation
          </Title>
          {!token ? (
            <Alert color="red" role="alert" title="This link has no invitation in it">
              Open the full link from your invitation (it ends with # and a long code), or ask your admin to send a new
              one.
            </Alert>
          ) : error?.status === 404 ? (
            <Alert color="red" role="alert" title="This invitation cannot be used">
              <Stack gap="xs">
                <Text size="sm">{error.message}</Text>
                <Text size="sm">
                  Invitations work once and for 72 hours, and a newer one replaces the older. Ask your admin for a new
                  invitation, or{" "}
                  <Anchor component={Link} to="/sign-in">
                    sign in
                  </Anchor>{" "}
                  if you already set a password.
                </Text>
              </Stack>
            </Alert>
          ) : (
            <form onSubmit={submit}>
              <Stack>
                <Text size="sm">Choose the password you will sign in with.</Text>
                {error && problems.length === 0 && (
                  <Alert color="red" role="alert">
                    {error.message}
                    {error.requestId && (
                      <Text size="xs" c="dimmed">
                        Request id: <code>{error.requestId}</code>
                      </Text>
                    )}
                  </Alert>
                )}
                <NewPasswordFields
                  label="Password"
                  password={password}
                  confirm={confirm}
                  onPassword={setPassword}
                  onConfirm={setConfirm}
                  problems={problems}
                  showMismatch={submitted}
                />
                <Button type="submit" loading={accept.isPending}>
                  Set password and sign in
                </Button>
              </Stack>
            </form>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
