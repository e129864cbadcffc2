import { Button, Group, Select, TextInput } from "@mantine/core";
import type { FormEvent } from "react";
import { useDraft } from "../../lib/draft";
import { ROLE_LABELS } from "../../ui/labels";
import { type PeopleSearch, ROLES } from "./schemas";

/** The option that sets no filter (Select needs a non-empty value). */
const ALL = "all";
const ROLE_OPTIONS = [
  { value: ALL, label: "Every role" },
  ...ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] })),
];
const STATUS_OPTIONS = [
  { value: ALL, label: "Active and inactive" },
  { value: "true", label: "Active" },
  { value: "false", label: "Inactive" },
];

/** Role and status apply at once; the email (an exact match, as GET /users takes it) on Search. */
export function PeopleFilters({ filter, onChange }: { filter: PeopleSearch; onChange: (f: PeopleSearch) => void }) {
  const [email, setEmail] = useDraft(filter.email ?? "");
  const search = (event: FormEvent) => {
    event.preventDefault();
    onChange({ ...filter, email: email.trim() || undefined });
  };
  return (
    <form onSubmit={search} aria-label="Filter people">
      <Group align="end" gap="sm">
        <Select
          label="Role"
          data={ROLE_OPTIONS}
          value={filter.role ?? ALL}
          onChange={(value) => onChange({ ...filter, role: ROLES.find((role) => role === value) })}
          allowDeselect={false}
          w={170}
        />
        <Select
          label="Status"
          data={STATUS_OPTIONS}
          value={filter.active === undefined ? ALL : String(filter.active)}
          onChange={(value) => onChange({ ...filter, active: value === ALL ? undefined : value === "true" })}
          allowDeselect={false}
          w={190}
        />
        <TextInput
          label="Email (exact)"
          type="search"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          placeholder="name@company.com"
          w={260}
        />
        <Button type="submit" variant="light">
          Search
        </Button>
      </Group>
    </form>
  );
}
