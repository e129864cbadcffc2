import { Modal, Stack, Text, TextInput } from "@mantine/core";
import { useMemo, useState } from "react";
import { useRevokeSessions, useUpdateUser } from "../../data/users/mutations";
import { namesOf, type Role, type User } from "../../data/users/queries";
import { fieldErrors } from "../../lib/field-errors";
import { today } from "../../lib/periods";
import { ConfirmModal } from "../../ui/ConfirmModal";
import { AssignPlanDialog } from "./AssignPlanDialog";
import { InviteDialog } from "./InviteDialog";
import { MoveImpact } from "./MoveImpact";
import { ManagerSelect, RoleSelect } from "./PersonFields";
import { useMoveImpact } from "./useMoveImpact";

export type PersonAction = "invite" | "assign" | "role" | "manager" | "revoke" | "deactivate" | "reactivate";

interface Props {
  kind: PersonAction;
  user: User;
  everyone: User[];
  onClose: () => void;
}

/** One action on one person, asked for and explained first; the server's refusal shows in the dialog. */
export function PersonActionDialog({ kind, user, everyone, onClose }: Props) {
  const update = useUpdateUser();
  const revoke = useRevokeSessions();
  const [role, setRole] = useState<Role>(user.role);
  const [managerId, setManagerId] = useState(user.manager_id);
  // From when the new manager counts (API.md §16): today unless an earlier day is picked.
  const [initialFrom] = useState(today);
  const [from, setFrom] = useState(initialFrom);
  const done = { onSuccess: onClose };
  const moved = kind === "manager" && managerId !== user.manager_id;
  // Left at today, the server's own today applies (UTC), so a browser ahead of UTC never sends tomorrow.
  const managerBody = {
    manager_id: managerId,
    ...(moved && from !== initialFrom ? { manager_effective_from: from } : {}),
  };
  // Before saving, what the move does to override lines: the same body, previewed (API.md §16).
  const impact = useMoveImpact(user.id, moved ? managerBody : null);
  const names = useMemo(() => namesOf(everyone), [everyone]);

  if (kind === "invite") return <InviteDialog user={user} onClose={onClose} />;
  if (kind === "assign") return <AssignPlanDialog user={user} onClose={onClose} />;

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
          <RoleSelect value={role} onChange={setRole} error={fieldError("role")} />
          <Text size="sm" c="gray.7">
            A role change signs {user.name} out; what they see and may do changes when they sign in again.
          </Text>
        </Stack>
      </ConfirmModal>
    );
  }

  return (
    <ConfirmModal
      opened
      title={`Change ${user.name}'s manager`}
      confirmLabel="Change manager"
      pending={update.isPending}
      error={fieldError("manager_id") || fieldError("manager_effective_from") ? null : update.error}
      onConfirm={() => update.mutate({ id: user.id, body: managerBody }, done)}
      onClose={onClose}
    >
      <Stack gap="sm">
        <ManagerSelect
          everyone={everyone}
          except={user.id}
          value={managerId}
          onChange={setManagerId}
          error={fieldError("manager_id")}
        />
        {moved && (
          <TextInput
            type="date"
            label="Effective from"
            description="The new manager counts from this day: today, or an earlier day (not before the current manager's start)."
            value={from}
            max={initialFrom}
            onChange={(event) => setFrom(event.currentTarget.value)}
            error={fieldError("manager_effective_from")}
          />
        )}
        {moved && <MoveImpact state={impact} names={names} />}
      </Stack>
    </ConfirmModal>
  );
}
