import { Button, Group, Select, Stack, Text, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { useCreateKey } from "../../data/api-keys/mutations";
import type { Scope } from "../../data/api-keys/queries";
import { fieldErrors } from "../../lib/field-errors";
import { ActionError } from "../../ui/ActionError";
import { OneTimeSecret, SecretModal } from "../../ui/OneTimeSecret";

const SCOPES: { value: Scope; label: string }[] = [
  { value: "read", label: "read: lists and gets" },
  { value: "write", label: "write: also creates and updates deals and users" },
  { value: "admin", label: "admin: everything, keys and webhooks included" },
];

const EXPIRIES = [
  { value: "never", label: "Never" },
  { value: "30", label: "In 30 days" },
  { value: "90", label: "In 90 days" },
  { value: "365", label: "In a year" },
  { value: "date", label: "On a date…" },
];

const DAY_MS = 86_400_000;

/** The expiry the form asks for, as the API's timestamp: a preset from now, or the start of a chosen day (browser time). */
function expiresAt(choice: string, day: string): string | null {
  if (choice === "never") return null;
  if (choice === "date") return day ? new Date(`${day}T00:00:00`).toISOString() : "";
  return new Date(Date.now() + Number(choice) * DAY_MS).toISOString();
}

/** Create a key: name, scope, optional expiry → the raw key once, then never again. */
export function CreateKeyDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <SecretModal<string>
      opened={opened}
      onClose={onClose}
      title={(secret) => (secret ? "Your new API key" : "Create an API key")}
      ask={(reveal, close) => <CreateForm onSecret={reveal} onCancel={close} />}
      show={(secret, close) => (
        <OneTimeSecret label="API key" secret={secret} onDone={close}>
          Send it as <code>Authorization: Bearer …</code>. It works on the REST API and, with the read tools, on /mcp.
        </OneTimeSecret>
      )}
    />
  );
}

function CreateForm({ onSecret, onCancel }: { onSecret: (key: string) => void; onCancel: () => void }) {
  const [name, setName] = useState("");
  const [scope, setScope] = useState<Scope | null>(null);
  const [expiry, setExpiry] = useState("never");
  const [day, setDay] = useState("");
  const [submitted, setSubmitted] = useState(false);
  const create = useCreateKey(onSecret);
  const errors = fieldErrors(create.error);
  const missingDay = expiry === "date" && day === "";

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (name.trim() === "" || scope === null || missingDay) return;
    create.mutate({ name, scope, expires_at: expiresAt(expiry, day) });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm">Keys are for programs. People sign in to the console instead.</Text>
        <TextInput
          label="Name"
          description="Say what uses it, e.g. “CRM sync”"
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name ?? (submitted && name.trim() === "" ? "Name the key" : undefined)}
          maxLength={100}
        />
        <Select
          label="Scope"
          placeholder="Pick one"
          required
          data={SCOPES}
          value={scope}
          onChange={(value) => setScope(SCOPES.find((s) => s.value === value)?.value ?? null)}
          error={errors.scope ?? (submitted && scope === null ? "Pick a scope" : undefined)}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label="Expires"
          data={EXPIRIES}
          value={expiry}
          onChange={(value) => value && setExpiry(value)}
          allowDeselect={false}
          error={expiry === "date" ? undefined : errors.expires_at}
          comboboxProps={{ withinPortal: true }}
        />
        {expiry === "date" && (
          <TextInput
            type="date"
            label="Expiry day"
            description="The key stops working at the start of this day, your time"
            required
            value={day}
            onChange={(e) => setDay(e.currentTarget.value)}
            error={errors.expires_at ?? (submitted && missingDay ? "Pick a day" : undefined)}
          />
        )}
        {Object.keys(errors).length === 0 && <ActionError error={create.error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create key
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
