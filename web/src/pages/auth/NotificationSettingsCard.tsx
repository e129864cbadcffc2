import { Alert, Button, Group, Paper, Stack, Switch, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useSaveNotifications } from "../../data/auth/mutations";
import { notificationsQuery } from "../../data/auth/queries";
import { ActionError } from "../../ui/ActionError";
import { NOTIFICATION_KIND_LABELS } from "../../ui/labels";
import { ErrorState, LoadingState } from "../../ui/states";
import { changedKinds, type Switches } from "./notification-changes";

/** Which emails the person gets (docs/notifications.md §4): security messages always, the others as switched. */
export function NotificationSettingsCard() {
  const settings = useQuery(notificationsQuery());
  const save = useSaveNotifications();
  const [draft, setDraft] = useState<Switches>({});
  if (settings.isPending) return <LoadingState label="Loading your notification settings" />;
  if (settings.isError) return <ErrorState error={settings.error} retry={() => void settings.refetch()} />;
  const saved = settings.data;
  const changes = changedKinds(saved, draft);
  const dirty = Object.keys(changes).length > 0;
  const submit = () => save.mutate({ kinds: changes }, { onSuccess: () => setDraft({}) });
  return (
    <Paper withBorder p="md" data-testid="notification-settings">
      <Stack>
        <Title order={3} size="h4">
          Email notifications
        </Title>
        {!saved.email_configured && (
          <Alert color="gray" title="Email is not configured" data-testid="email-not-configured">
            This service sends no email until whoever runs it sets it up. Your choices are kept for when it does.
          </Alert>
        )}
        {save.isSuccess && !dirty && (
          <Alert color="teal" role="status" title="Saved">
            Your choices apply to the messages from now on.
          </Alert>
        )}
        <ActionError error={save.error} />
        <Stack gap="sm">
          {saved.kinds.map(({ kind, enabled, switchable }) => {
            const words = NOTIFICATION_KIND_LABELS[kind];
            return (
              <Switch
                key={kind}
                label={words.label}
                description={
                  switchable
                    ? words.description
                    : `${words.description} Always sent: it is how you get into your account.`
                }
                checked={switchable ? (draft[kind] ?? enabled) : true}
                disabled={!switchable}
                onChange={(e) => {
                  const checked = e.currentTarget.checked;
                  if (save.isSuccess || save.isError) save.reset();
                  setDraft((d) => ({ ...d, [kind]: checked }));
                }}
              />
            );
          })}
        </Stack>
        <Group>
          <Button onClick={submit} disabled={!dirty} loading={save.isPending}>
            Save notification settings
          </Button>
          {dirty && (
            <Text size="sm" c="dimmed">
              Not saved yet
            </Text>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
