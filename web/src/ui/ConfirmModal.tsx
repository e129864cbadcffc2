import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { ActionError } from "./ActionError";

interface Props {
  opened: boolean;
  title: string;
  /** What will happen, in words: the person confirms that, not "are you sure". */
  children: ReactNode;
  confirmLabel: string;
  /** What keeps things as they are ("Cancel", "Keep it"). */
  cancelLabel?: string;
  /** Red for what takes something away (deactivate, end, revoke). */
  destructive?: boolean;
  pending: boolean;
  /** The confirm button waits for something the dialog asks first (a typed total). */
  confirmDisabled?: boolean;
  /** The failed attempt's error: its message and request id are shown, and nothing changed. */
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
}

/** A dialog that asks before an action, says what it does, and shows the server's refusal if it comes. */
export function ConfirmModal({
  opened,
  title,
  children,
  confirmLabel,
  cancelLabel = "Cancel",
  destructive,
  pending,
  confirmDisabled,
  error,
  onConfirm,
  onClose,
}: Props) {
  return (
    <Modal opened={opened} onClose={onClose} closeButtonProps={{ "aria-label": "Close" }} title={title} centered>
      <Stack>
        {typeof children === "string" ? <Text size="sm">{children}</Text> : children}
        <ActionError error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={pending}>
            {cancelLabel}
          </Button>
          <Button
            color={destructive ? "red" : undefined}
            loading={pending}
            disabled={confirmDisabled}
            onClick={onConfirm}
            data-autofocus
          >
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
