import { Modal, Select, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { useRevokeSessions, useUpdateUser } from "../../data/users/mutations";
import type { Role, User } from "../../data/users/queries";
import { fieldErrors } from "../../lib/field-errors";
import { ConfirmModal } from "../../ui/ConfirmModal";
import { ROLE_LABELS } from "../../ui/labels";
import { InviteDialog } from "./InviteDialog";

export type PersonAction = "invite" | "role" | "manager" | "revoke" | "deactivate" | "reactivate";

interface Props {
  kind: PersonAction;
  user: User;
  everyone: User[];
  onClose: () => void;
}

const ROLE_OPTIONS = Object.entries(ROLE_LABELS).map(([value, label]) => ({ value, label }));
const NO_MANAGER = "none";

/** One action on one person, asked for and explained first; the server's refusal shows in the dialog. */
export function PersonActionDialog({ kind, user, everyone, onClose }: Props) {
  const update = useUpdateUser();
  const revoke = useRevokeSessions();
  const [role, setRole] = useState<Role>(user.role);
  const [managerId, setManagerId] = useState(user.manager_id ?? NO_MANAGER);
  const done = { onSuccess: onClose };

  if (kind === "invite") return <InviteDialog user={user} onClose={onClose} />;

  if (kind === "revoke") {
    if (revoke.isSuccess) {
      return (
        <Modal opened onClose={onClose} closeButtonProps={{ "aria-label": "Close" }} title="Signed out" centered>
          <Text size="sm" role="status">
            {revoke.data.revoked === 0
              ? `${user.name} had no open sessions.`
              : `Ended ${revoke.data.revoked} open session${revoke.data.revoked === 1 ? "" : "s"} of ${user.name}.`}
          </Text>
        </Modal>
      );
    }
    return (
      <ConfirmModal
        opened
        title={`Sign ${user.name} out everywhere?`}
        confirmLabel="Sign out everywhere"
        destructive
        pending={revoke.isPending}
        error={revoke.error}
        onConfirm={() => revoke.mutate(user.id)}
        onClose={onClose}
      >
        Every open session of {user.name} ends on its next request. They can sign in again at once.
      </ConfirmModal>
    );
  }

  if (kind === "deactivate" || kind === "reactivate") {
    const active = kind === "reactivate";
    return (
      <ConfirmModal
        opened
        title={active ? `Reactivate ${user.name}?` : `Deactivate ${user.name}?`}
        confirmLabel={active ? "Reactivate" : "Deactivate"}
        destructive={!active}
        pending={update.isPending}
        error={update.error}
        onConfirm={() => update.mutate({ id: user.id, body: { active } }, done)}
        onClose={onClose}
      >
        {active
          ? `${user.name} can sign in again (with their password, or a new invitation if they never set one).`
          : `${user.name} is signed out at once and can no longer sign in. Their deals and commission lines stay.`}
      </ConfirmModal>
    );
  }

  const errors = fieldErrors(update.error);
  const fieldError = (param: string) => errors[param];

  if (kind === "role") {
    return (
      <ConfirmModal
        opened
        title={`Change ${user.name}'s role`}
        confirmLabel="Change role"
        pending={update.isPending}
        error={fieldError("role") ? null : update.error}
        onConfirm={() => update.mutate({ id: user.id, body: { role } }, done)}
        onClose={onClose}
      >
        <Stack gap="sm">
          <Select
            label="Role"
            data={ROLE_OPTIONS}
            value={role}
            onChange={(value) => value && setRole(value as Role)}
            allowDeselect={false}
            error={fieldError("role")}
            comboboxProps={{ withinPortal: false }}
          />
          <Text size="sm" c="gray.7">
            A role change signs {user.name} out; what they see and may do changes when they sign in again.
          </Text>
        </Stack>
      </ConfirmModal>
    );
  }

  const managers = everyone
    .filter((u) => u.id !== user.id && u.active)
    .map((u) => ({ value: u.id, label: `${u.name} (${ROLE_LABELS[u.role]})` }));
  return (
    <ConfirmModal
      opened
      title={`Change ${user.name}'s manager`}
      confirmLabel="Change manager"
      pending={update.isPending}
      error={fieldError("manager_id") ? null : update.error}
      onConfirm={() =>
        update.mutate({ id: user.id, body: { manager_id: managerId === NO_MANAGER ? null : managerId } }, done)
      }
      onClose={onClose}
    >
      <Select
        label="Manager"
        data={[{ value: NO_MANAGER, label: "No manager" }, ...managers]}
        value={managerId}
        onChange={(value) => value && setManagerId(value)}
        allowDeselect={false}
        searchable
        error={fieldError("manager_id")}
        comboboxProps={{ withinPortal: false }}
      />
    </ConfirmModal>
  );
}
