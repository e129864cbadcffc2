import {
  Alert,
  Anchor,
  Button,
  Center,
  Code,
  Divider,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { type FormEvent, Fragment, useState } from "react";
import { useSignIn } from "../../data/auth/mutations";
import { authMethodsQuery } from "../../data/auth/queries";
import { safeReturnTo } from "../../lib/return-to";

export function SignInPage() {
  const search = useSearch({ from: "/sign-in" });
  const navigate = useNavigate();
  const methods = useQuery(authMethodsQuery());
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const signIn = useSignIn();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // What an ended session left cached may be another person's: this one starts from nothing
    // (data/refresh.ts). return_to is a whole path with its query (/statements/2026-Q4?user=…), hence href.
    signIn.mutate({ email, password }, { onSuccess: () => navigate({ href: safeReturnTo(search.return_to) }) });
  };
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder p="xl" w="100%" maw={400}>
        <form onSubmit={submit}>
          <Stack>
            <Title order={1} size="h3">
              Sign in
            </Title>
            {search.reason === "expired" && !signIn.error && (
              <Alert color="yellow">Your session ended. Sign in again to go on where you were.</Alert>
            )}
            {methods.data?.needs_first_admin && <FirstAdminHelp />}
            {signIn.error && (
              <Alert color="red" role="alert">
                {signIn.error.message}
              </Alert>
            )}
            <TextInput
              label="Email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            {methods.data?.password_reset && (
              <Anchor component={Link} to="/forgot-password" size="sm" style={{ alignSelf: "flex-end" }}>
                Forgot password?
              </Anchor>
            )}
            <Button type="submit" loading={signIn.isPending}>
              Sign in
            </Button>
            {methods.data?.oidc && (
              <>
                <Divider label="or" />
                <Button
                  component="a"
                  variant="default"
                  href={`/api/v1/auth/oidc/start?return_to=${encodeURIComponent(safeReturnTo(search.return_to))}`}
                >
                  Sign in with SSO
                </Button>
              </>
            )}
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}

/**
 * A new installation has no admin, so no password here works yet: the first one is invited on the server,
 * by the command its start banner prints (API.md §11), which nobody should have to find in the README.
 */
function FirstAdminHelp() {
  return (
    <Alert color="blue" title="No one can sign in yet" data-testid="first-admin-help">
      <Stack gap="xs">
        <Text size="sm">
          This service has no admin yet. Whoever runs it makes the first one: on the server, in the project&apos;s
          directory, run
        </Text>
        <Command parts={["npm run cts --", "users invite", "you@example.com", "--role admin"]} />
        <Text size="sm">or, where cts is installed as a command,</Text>
        <Command parts={["cts users invite", "you@example.com", "--role admin"]} />
        <Text size="sm">
          (the server&apos;s start banner prints it too), then open the one-time link it prints and choose a password.
        </Text>
      </Stack>
    </Alert>
  );
}

/** A command that wraps in the narrow card (rather than widening it) only between its parts. */
function Command({ parts }: { parts: string[] }) {
  return (
    <Code block style={{ whiteSpace: "normal" }}>
      {parts.map((part, i) => (
        <Fragment key={part}>
          {i > 0 && " "}
          <span style={{ whiteSpace: "nowrap" }}>{part}</span>
        </Fragment>
      ))}
    </Code>
  );
}
