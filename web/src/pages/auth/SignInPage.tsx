import { Alert, Button, Center, Divider, Paper, PasswordInput, Stack, TextInput, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
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
