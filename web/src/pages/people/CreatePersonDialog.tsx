import { Button, Group, Modal, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { type CreateUserBody, useCreateUser } from "../../data/users/mutations";
import type { Role, User } from "../../data/users/queries";
import { fieldErrors } from "../../lib/field-errors";
import { useFields } from "../../lib/fields";
import { ActionError } from "../../ui/ActionError";
import { InviteDialog } from "./InviteDialog";
import { ManagerSelect, RoleSelect } from "./PersonFields";

/** A new person (POST /users), then, if wanted, their invitation link at once. */
export function CreatePersonDialog({ everyone, onClose }: { everyone: User[]; onClose: () => void }) {
  const create = useCreateUser();
  const errors = fieldErrors(create.error);
  const form = useFields(
    { name: "", email: "", role: "rep" as Role, manager_id: null as string | null, external_id: "" },
    errors,
  );
  const [inviting, setInviting] = useState<User | null>(null);
  const named = new Set(["name", "email", "role", "manager_id", "external_id"]);
  const otherError = create.error && !Object.keys(errors).some((k) => named.has(k)) ? create.error : null;

  if (inviting) return <InviteDialog user={inviting} onClose={onClose} />;

  const submit = (event: FormEvent, thenInvite: boolean) => {
    event.preventDefault();
    const { external_id, ...values } = form.values;
    const body: CreateUserBody = { ...values, ...(external_id.trim() && { external_id: external_id.trim() }) };
    create.mutate(body, { onSuccess: (user) => (thenInvite ? setInviting(user) : onClose()) });
  };

  return (
    <Modal opened onClose={onClose} closeButtonProps={{ "aria-label": "Close" }} title="New person" centered size="lg">
      <form onSubmit={(e) => submit(e, true)} noValidate>
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Name" required data-autofocus {...form.text("name")} />
            <TextInput label="Email" type="email" required {...form.text("email")} />
            <RoleSelect {...form.value("role")} />
            <ManagerSelect everyone={everyone} {...form.value("manager_id")} />
            <TextInput
              label="External id (optional)"
              description="Your HR or CRM system's id for this person."
              {...form.text("external_id")}
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
