import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { createInvitation } from "../../data/users/mutations";
import type { User } from "../../data/users/queries";
import { dateTime } from "../../lib/format";
import { ActionError } from "../../ui/ActionError";
import { OneTimeSecret } from "../../ui/OneTimeSecret";

type Invitation = Awaited<ReturnType<typeof createInvitation>>;

/**
 * Asks, then creates an invitation and shows its link once. The link lives in this component's state
 * only: closing the dialog (or leaving the page) drops it, and no cache ever held it.
 */
export function InviteDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const [invitation, setInvitation] = useState<Invitation | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);

  const invite = async () => {
    setPending(true);
    setError(null);
    try {
      setInvitation(await createInvitation(user.id));
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  };
  const close = () => {
    setInvitation(null);
    onClose();
  };

  return (
    <Modal
      opened
      onClose={close}
      closeButtonProps={{ "aria-label": "Close" }}
      title={`Invite ${user.name}`}
      centered
      size="lg"
    >
      {invitation ? (
        <OneTimeSecret
          label="Invitation link"
          secret={invitation.url}
          advice="Neither the console nor the API can show it again; a new invitation cancels this one."
          doneLabel="Done"
          onDone={close}
        >
          Send it to {user.email}. It works once, until {dateTime(invitation.expires_at)}.
        </OneTimeSecret>
      ) : (
        <Stack>
          <Text size="sm">
            Creates a sign-in link for {user.name} ({user.email}) to set a password with. It cancels any link sent
            before, works once and expires after 72 hours.
          </Text>
          {error !== null && <ActionError error={error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button loading={pending} onClick={invite} data-autofocus>
              Create link
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
