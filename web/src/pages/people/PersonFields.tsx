import { Select } from "@mantine/core";
import type { Role, User } from "../../data/users/queries";
import { ROLE_LABELS } from "../../ui/labels";
import { ROLES } from "./schemas";

const ROLE_OPTIONS = ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));
/** The manager picker's "nobody" (a Select needs a non-empty value). */
const NO_MANAGER = "none";

export function RoleSelect(props: { value: Role; onChange: (role: Role) => void; error: string | undefined }) {
  return (
    <Select
      label="Role"
      data={ROLE_OPTIONS}
      value={props.value}
      onChange={(value) => {
        const role = ROLES.find((r) => r === value);
        if (role) props.onChange(role);
      }}
      allowDeselect={false}
      error={props.error}
      comboboxProps={{ withinPortal: false }}
    />
  );
}

/** A manager among the active people (not `except`, the person being changed), or nobody (null). */
export function ManagerSelect(props: {
  everyone: User[];
  except?: string;
  value: string | null;
  onChange: (managerId: string | null) => void;
  error: string | undefined;
}) {
  const managers = props.everyone
    .filter((u) => u.id !== props.except && u.active)
    .map((u) => ({ value: u.id, label: `${u.name} (${ROLE_LABELS[u.role]})` }));
  return (
    <Select
      label="Manager"
      data={[{ value: NO_MANAGER, label: "No manager" }, ...managers]}
      value={props.value ?? NO_MANAGER}
      onChange={(value) => value && props.onChange(value === NO_MANAGER ? null : value)}
      allowDeselect={false}
      searchable
      error={props.error}
      comboboxProps={{ withinPortal: false }}
    />
  );
}
