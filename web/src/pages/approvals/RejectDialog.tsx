import { Alert, Button, Group, Modal, Stack, Text, Textarea } from "@mantine/core";
import { useState } from "react";
import { ApiError } from "../../api/errors";
import { useRejectDeal } from "../../data/deals/mutations";
import type { Deal } from "../../data/deals/queries";
import { fieldErrors } from "../../lib/field-errors";

/** Rejects one deal with a reason (the API requires one; it becomes the deal's rejection_reason). */
export function RejectDialog({ deal, onClose }: { deal: Deal | null; onClose: (rejected: Deal | null) => void }) {
  return (
    <Modal
      opened={deal !== null}
      onClose={() => onClose(null)}
      title={deal ? `Reject ${deal.opportunity_name}` : "Reject"}
      closeButtonProps={{ "aria-label": "Close" }}
    >
      {deal && <RejectForm key={deal.id} deal={deal} onClose={onClose} />}
    </Modal>
  );
}

function RejectForm({ deal, onClose }: { deal: Deal; onClose: (rejected: Deal | null) => void }) {
  const [reason, setReason] = useState("");
  const [missing, setMissing] = useState(false);
  const reject = useRejectDeal();
  const errors = fieldErrors(reject.error);
  const other = reject.error && !errors.reason ? reject.error : null;
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!reason.trim()) return setMissing(true);
    reject.mutate({ deal, reason: reason.trim() }, { onSuccess: () => onClose(deal) });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="gray.7">
          The deal's lines are voided; the owner sees the reason. Editing the deal later resubmits it.
        </Text>
        <Textarea
          label="Reason"
          required
          autosize
          minRows={3}
          maxLength={2000}
          data-autofocus
          value={reason}
          onChange={(e) => {
            setReason(e.currentTarget.value);
            setMissing(false);
          }}
          error={missing ? "A reason is required" : errors.reason}
        />
        {other && (
          <Alert color="red" role="alert" title="Could not reject this deal">
            <Text size="sm">{other.message}</Text>
            {other instanceof ApiError && other.requestId && (
              <Text size="xs">
                Request id: <code>{other.requestId}</code>
              </Text>
            )}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onClose(null)}>
            Cancel
          </Button>
          <Button type="submit" color="red.9" loading={reject.isPending}>
            Reject deal
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
