import { Badge, Button, Menu, Table, Text, VisuallyHidden } from "@mantine/core";
import { useState } from "react";
import type { User } from "../../data/users/queries";
import { AnchorLink } from "../../ui/AnchorLink";
import { ROLE_LABELS } from "../../ui/labels";
import { ScrollTable } from "../../ui/ScrollTable";
import { type PersonAction, PersonActionDialog } from "./PersonActionDialog";

interface Props {
  people: User[];
  everyone: User[];
  /** Everyone's names by id, for the manager column. */
  names: Map<string, string>;
  /** Admins act on people; finance reads (the column of actions is absent, not disabled). */
  canEdit: boolean;
  me: string;
}

export function PeopleTable({ people, everyone, names, canEdit, me }: Props) {
  const [action, setAction] = useState<{ kind: PersonAction; user: User } | null>(null);
  return (
    <>
      <ScrollTable minWidth={canEdit ? 860 : 720} label="People">
        <Table striped highlightOnHover verticalSpacing="sm" aria-label="People" data-testid="people-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">Email</Table.Th>
              <Table.Th scope="col">Role</Table.Th>
              <Table.Th scope="col">Manager</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              {canEdit && (
                <Table.Th scope="col">
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {people.map((user) => (
              <Table.Tr key={user.id} data-user-id={user.id}>
                <Table.Th scope="row" fw={500} style={{ whiteSpace: "nowrap" }}>
                  <AnchorLink to="/people/$userId" params={{ userId: user.id }}>
                    {user.name}
                  </AnchorLink>
                </Table.Th>
                <Table.Td data-col="email">{user.email}</Table.Td>
                <Table.Td data-col="role">{ROLE_LABELS[user.role]}</Table.Td>
                <Table.Td data-col="manager">
                  {user.manager_id ? (
                    (names.get(user.manager_id) ?? user.manager_id)
                  ) : (
                    <Text span c="gray.7">
                      —
                    </Text>
                  )}
                </Table.Td>
                <Table.Td data-col="status">
                  <Badge color={user.active ? "green.8" : "gray.7"} variant="dot" miw="max-content">
                    {user.active ? "Active" : "Inactive"}
                  </Badge>
                </Table.Td>
                {canEdit && (
                  <Table.Td ta="right">
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
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      {action && (
        <PersonActionDialog kind={action.kind} user={action.user} everyone={everyone} onClose={() => setAction(null)} />
      )}
    </>
  );
}
