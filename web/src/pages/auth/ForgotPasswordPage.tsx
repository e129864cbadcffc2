import { Alert, Anchor, Button, Center, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { Link } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { useRequestPasswordReset } from "../../data/auth/mutations";
import { FormAlertView } from "./FormAlertView";
import { forgotPasswordProblems } from "./reset-problems";

/**
 * "Forgot password?": the email, then the server's one answer whatever the email (docs/notifications.md
 * §4), so the page tells no one whether an account uses it.
 */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState("");
  const request = useRequestPasswordReset();
  const problems = forgotPasswordProblems(request.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate({ email });
  };
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder p="xl" w="100%" maw={400}>
        <Stack>
          <Title order={1} size="h3">
            Forgot your password?
          </Title>
          {request.isSuccess ? (
            <Alert color="teal" role="status" title="Check your email" data-testid="reset-requested">
              {request.data.message}
            </Alert>
          ) : (
            <form onSubmit={submit}>
              <Stack>
                <Text size="sm">
                  Give the email you sign in with. If an account uses it, a link to choose a new password is emailed to
                  it.
                </Text>
                <FormAlertView alert={problems.alert} />
                <TextInput
                  label="Email"
                  type="email"
                  autoComplete="username"
                  required
                  value={email}
                  onChange={(e) => setEmail(e.currentTarget.value)}
                  error={problems.email}
                />
                <Button type="submit" loading={request.isPending}>
                  Email me a link
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
