import { Alert, Button, Paper, PasswordInput, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useRouteContext } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { ApiError } from "../../api/errors";
import { useChangePassword } from "../../data/auth/mutations";
import { ROLE_LABELS } from "../../ui/labels";
import { NewPasswordFields } from "./NewPasswordFields";
import { NotificationSettingsCard } from "./NotificationSettingsCard";
import { passwordProblemsOf, passwordReady } from "./passwordRules";

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text style={{ overflowWrap: "anywhere" }}>{value}</Text>
    </div>
  );
}

export function AccountPage() {
  const { session } = useRouteContext({ from: "/signed-in" });
  const { user } = session;
  return (
    <Stack maw={640}>
      <Title order={1} size="h2">
        Account
      </Title>
      <Paper withBorder p="md">
        <SimpleGrid cols={{ base: 1, xs: 3 }}>
          <Fact label="Name" value={user.name} />
          <Fact label="Email" value={user.email} />
          <Fact label="Role" value={ROLE_LABELS[user.role]} />
        </SimpleGrid>
      </Paper>
      <ChangePassword email={user.email} name={user.name} />
      <NotificationSettingsCard />
    </Stack>
  );
}

function ChangePassword({ email, name }: { email: string; name: string }) {
  const [current, setCurrent] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [submitted, setSubmitted] = useState(false);
  const change = useChangePassword();
  const reset = () => {
    setCurrent("");
    setPassword("");
    setConfirm("");
    setSubmitted(false);
  };
  const error = change.error instanceof ApiError ? change.error : null;
  // API.md §11: a wrong current password is 403, the only 403 a signed-in person gets here.
  const wrongCurrent = error?.status === 403 ? error.message : undefined;
  const problems = passwordProblemsOf(error, "new_password");
  const other = error && !wrongCurrent && problems.length === 0 ? error : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (current && passwordReady(password, confirm, email)) {
      change.mutate({ current_password: current, new_password: password }, { onSuccess: reset });
    }
  };

  return (
    <Paper withBorder p="md">
      <form onSubmit={submit}>
        <Stack>
          <Title order={3} size="h4">
            Change your password
          </Title>
          {change.isSuccess && (
            <Alert color="teal" role="status" title="Password changed">
              Your other sessions were ended: anywhere else you were signed in, sign in again with the new password.
              This one goes on.
            </Alert>
          )}
          {other && (
            <Alert color="red" role="alert">
              {other.message}
              {other.requestId && (
                <Text size="xs" c="dimmed">
                  Request id: <code>{other.requestId}</code>
                </Text>
              )}
            </Alert>
          )}
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
            error={wrongCurrent}
          />
          <NewPasswordFields
            password={password}
            confirm={confirm}
            onPassword={setPassword}
            onConfirm={setConfirm}
            email={email}
            name={name}
            problems={problems}
            showMismatch={submitted}
          />
          <Button type="submit" loading={change.isPending} style={{ alignSelf: "flex-start" }}>
            Change password
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
