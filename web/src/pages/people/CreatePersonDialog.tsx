import { Button, Group, Modal, Select, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { type CreateUserBody, useCreateUser } from "../../data/users/mutations";
import type { Role, User } from "../../data/users/queries";
import { fieldErrors } from "../../lib/field-errors";
import { ActionError } from "../../ui/ActionError";
import { ROLE_LABELS } from "../../ui/labels";
import { InviteDialog } from "./InviteDialog";

const ROLE_OPTIONS = Object.entries(ROLE_LABELS).map(([value, label]) => ({ value, label }));
const NO_MANAGER = "none";

/** A new person (POST /users), then, if wanted, their invitation link at once. */
export function CreatePersonDialog({ everyone, onClose }: { everyone: User[]; onClose: () => void }) {
  const create = useCreateUser();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("rep");
  const [managerId, setManagerId] = useState(NO_MANAGER);
  const [externalId, setExternalId] = useState("");
  const [inviting, setInviting] = useState<User | null>(null);
  const errors = fieldErrors(create.error);
  const named = new Set(["name", "email", "role", "manager_id", "external_id"]);
  const otherError = create.error && !Object.keys(errors).some((k) => named.has(k)) ? create.error : null;

  if (inviting) return <InviteDialog user={inviting} onClose={onClose} />;

  const submit = (event: FormEvent, thenInvite: boolean) => {
    event.preventDefault();
    const body: CreateUserBody = {
      name,
      email,
      role,
      manager_id: managerId === NO_MANAGER ? null : managerId,
      ...(externalId.trim() && { external_id: externalId.trim() }),
    };
    create.mutate(body, { onSuccess: (user) => (thenInvite ? setInviting(user) : onClose()) });
  };

  const managers = everyone
    .filter((u) => u.active)
    .map((u) => ({ value: u.id, label: `${u.name} (${ROLE_LABELS[u.role]})` }));
  return (
    <Modal opened onClose={onClose} closeButtonProps={{ "aria-label": "Close" }} title="New person" centered size="lg">
      <form onSubmit={(e) => submit(e, true)} noValidate>
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              required
              error={errors.name}
              data-autofocus
            />
            <TextInput
              label="Email"
              type="email"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              required
              error={errors.email}
            />
            <Select
              label="Role"
              data={ROLE_OPTIONS}
              value={role}
              onChange={(value) => value && setRole(value as Role)}
              allowDeselect={false}
              error={errors.role}
              comboboxProps={{ withinPortal: false }}
            />
            <Select
              label="Manager"
              data={[{ value: NO_MANAGER, label: "No manager" }, ...managers]}
              value={managerId}
              onChange={(value) => value && setManagerId(value)}
              allowDeselect={false}
              searchable
              error={errors.manager_id}
              comboboxProps={{ withinPortal: false }}
            />
            <TextInput
              label="External id (optional)"
              description="Your HR or CRM system's id for this person."
              value={externalId}
              onChange={(e) => setExternalId(e.currentTarget.value)}
              error={errors.external_id}
            />
          </SimpleGrid>
          {otherError && <ActionError error={otherError} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button variant="light" loading={create.isPending} onClick={(e) => submit(e, false)}>
              Create
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create and invite
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
