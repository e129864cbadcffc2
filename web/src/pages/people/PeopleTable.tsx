import { Badge, Button, Menu, Text, VisuallyHidden } from "@mantine/core";
import { type ReactNode, useState } from "react";
import type { User } from "../../data/users/queries";
import { AnchorLink } from "../../ui/AnchorLink";
import type { Column } from "../../ui/DataTable";
import { ROLE_LABELS } from "../../ui/labels";
import { type PersonAction, PersonActionDialog } from "./PersonActionDialog";

interface Options {
  everyone: User[];
  /** Everyone's names by id, for the manager column. */
  names: Map<string, string>;
  /** Admins act on people; finance reads (the column of actions is absent, not disabled). */
  canEdit: boolean;
  me: string;
}

/** The people list's columns, and the dialog of the action picked in a row's menu. */
export function usePeopleColumns({ everyone, names, canEdit, me }: Options): {
  columns: Column<User>[];
  dialog: ReactNode;
} {
  const [action, setAction] = useState<{ kind: PersonAction; user: User } | null>(null);
  const columns: Column<User>[] = [
    {
      header: "Name",
      rowHeader: true,
      props: () => ({ style: { whiteSpace: "nowrap" } }),
      cell: (user) => (
        <AnchorLink to="/people/$userId" params={{ userId: user.id }}>
          {user.name}
        </AnchorLink>
      ),
    },
    // A phone keeps the name, role and actions; the person's page has the rest.
    { header: "Email", id: "email", visibleFrom: "sm", cell: (user) => user.email },
    { header: "Role", id: "role", cell: (user) => ROLE_LABELS[user.role] },
    {
      header: "Manager",
      id: "manager",
      visibleFrom: "sm",
      cell: (user) =>
        user.manager_id ? (
          (names.get(user.manager_id) ?? user.manager_id)
        ) : (
          <Text span c="gray.7">
            —
          </Text>
        ),
    },
    {
      header: "Status",
      id: "status",
      visibleFrom: "sm",
      cell: (user) => (
        <Badge color={user.active ? "green.8" : "gray.7"} variant="dot" miw="max-content">
          {user.active ? "Active" : "Inactive"}
        </Badge>
      ),
    },
  ];
  if (canEdit) {
    columns.push({
      header: <VisuallyHidden>Actions</VisuallyHidden>,
      props: () => ({ ta: "right" }),
      cell: (user) => (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Button variant="subtle" size="xs" aria-label={`Actions for ${user.name}`}>
              Actions ▾
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {user.active && (
              <Menu.Item onClick={() => setAction({ kind: "invite", user })}>Invite (new link)</Menu.Item>
            )}
            {user.active && <Menu.Item onClick={() => setAction({ kind: "assign", user })}>Assign a plan</Menu.Item>}
            <Menu.Item onClick={() => setAction({ kind: "role", user })}>Change role</Menu.Item>
            <Menu.Item onClick={() => setAction({ kind: "manager", user })}>Change manager</Menu.Item>
            <Menu.Item onClick={() => setAction({ kind: "revoke", user })}>Sign out everywhere</Menu.Item>
            <Menu.Divider />
            {user.active ? (
              // Not oneself: an admin who locks themself out needs the owner CLI to get back in.
              user.id !== me && (
                <Menu.Item color="red" onClick={() => setAction({ kind: "deactivate", user })}>
                  Deactivate
                </Menu.Item>
              )
            ) : (
              <Menu.Item onClick={() => setAction({ kind: "reactivate", user })}>Reactivate</Menu.Item>
            )}
          </Menu.Dropdown>
        </Menu>
      ),
    });
  }
  const dialog = action && (
    <PersonActionDialog kind={action.kind} user={action.user} everyone={everyone} onClose={() => setAction(null)} />
  );
  return { columns, dialog };
}
