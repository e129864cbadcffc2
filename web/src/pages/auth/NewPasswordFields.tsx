import { PasswordInput, Stack } from "@mantine/core";
import { PasswordRules } from "./PasswordRules";

interface Props {
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
  /** The person's email, when the page knows it: the email rule is then judged as they type. */
  email?: string;
  /** The person's name, when the page knows it: a guessable word for the strength estimate. */
  name?: string;
  /** What the server refused about this password (its 422 details), shown on the field. */
  problems: string[];
  /** Shown on the confirm field once the person has submitted with two different passwords. */
  showMismatch: boolean;
  label?: string;
}

/** A new password with its rules shown as it is typed, and the same password again. */
export function NewPasswordFields(props: Props) {
  const { password, confirm, onPassword, onConfirm, email, name, problems, showMismatch } = props;
  const label = props.label ?? "New password";
  const mismatch = showMismatch && confirm !== password;
  return (
    <Stack gap="xs">
      <PasswordInput
        label={label}
        autoComplete="new-password"
        required
        value={password}
        onChange={(e) => onPassword(e.currentTarget.value)}
        error={problems.length > 0 ? problems.join(" ") : undefined}
      />
      <PasswordRules password={password} {...(email ? { email } : {})} {...(name ? { name } : {})} />
      <PasswordInput
        label={`Confirm ${label.toLowerCase()}`}
        autoComplete="new-password"
        required
        value={confirm}
        onChange={(e) => onConfirm(e.currentTarget.value)}
        error={mismatch ? "The two passwords differ" : undefined}
      />
    </Stack>
  );
}
