import { Button } from "@mantine/core";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { useDeleteDeal } from "../../data/deals/mutations";
import type { DealDetail } from "../../data/deals/queries";
import { ConfirmModal } from "../../ui/ConfirmModal";

/** "Delete" on a pending deal, asked first by the deal's name; the deal list once it is gone. */
export function DeleteDeal({ deal }: { deal: DealDetail }) {
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const remove = useDeleteDeal(deal.id);
  const close = () => {
    setAsking(false);
    remove.reset();
  };
  return (
    <>
      <Button variant="default" color="red.8" c="red.8" onClick={() => setAsking(true)}>
        Delete
      </Button>
      <ConfirmModal
        opened={asking}
        title={`Delete ${deal.opportunity_name}?`}
        confirmLabel="Delete deal"
        cancelLabel="Keep it"
        destructive
        pending={remove.isPending}
        error={remove.error}
        onClose={close}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => void navigate({ to: "/deals" }),
          })
        }
      >
        {`${deal.opportunity_name} and its commission lines are removed for good; the later deals of its periods are priced again. A deal with an adjustment cannot be deleted.`}
      </ConfirmModal>
    </>
  );
}
