import { Alert, Anchor, Button, Center, Paper, Stack, Text, Title } from "@mantine/core";
import { Link } from "@tanstack/react-router";
import { useConfirmPasswordReset } from "../../data/auth/mutations";
import { FormAlertView } from "./FormAlertView";
import { NewPasswordFields } from "./NewPasswordFields";
import { resetPasswordProblems } from "./reset-problems";
import { usePasswordLink } from "./usePasswordLink";

function AskAgain({ children }: { children: string }) {
  return (
    <Anchor component={Link} to="/forgot-password" inherit>
      {children}
    </Anchor>
  );
}

export function ResetPasswordPage() {
  const reset = useConfirmPasswordReset();
  const { token, password, confirm, setPassword, setConfirm, submitted, submit } = usePasswordLink(reset.mutate);
  const problems = resetPasswordProblems(reset.error);

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder p="xl" w="100%" maw={440}>
        <Stack>
          <Title order={1} size="h3">
            Choose a new password
          </Title>
          {!token ? (
            <Alert color="red" role="alert" title="This link has no reset code in it">
              <Text size="sm">
                Open the full link from the email (it ends with # and a long code), or{" "}
                <AskAgain>ask for a new link</AskAgain>.
              </Text>
            </Alert>
          ) : problems.linkRefused ? (
            <Alert color="red" role="alert" title="This link cannot be used" data-testid="reset-link-refused">
              <Stack gap="xs">
                <Text size="sm">{problems.linkRefused}</Text>
                <Text size="sm">
                  A reset link works once, for 1 hour, and a newer one replaces it.{" "}
                  <AskAgain>Ask for a new link</AskAgain>.
                </Text>
              </Stack>
            </Alert>
          ) : (
            <form onSubmit={submit}>
              <Stack>
                <Text size="sm">Choose the password you will sign in with from now on.</Text>
                <FormAlertView alert={problems.alert} />
                <NewPasswordFields
                  password={password}
                  confirm={confirm}
                  onPassword={setPassword}
                  onConfirm={setConfirm}
                  problems={problems.password}
                  showMismatch={submitted}
                />
                <Button type="submit" loading={reset.isPending}>
                  Set password and sign in
                </Button>
              </Stack>
            </form>
          )}
          <Anchor component={Link} to="/sign-in" size="sm">
            Back to sign in
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
}
