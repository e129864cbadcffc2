import { Button } from "@mantine/core";
import { useState } from "react";
import { useApplyPlanEdit } from "../../data/comp-plans/mutations";
import type { CompPlan } from "../../data/comp-plans/queries";
import { date } from "../../lib/format";
import { ConfirmModal } from "../../ui/ConfirmModal";

/** A draft made active (PATCH status, with the ETag it was read with): people assigned to it earn under it. */
export function PublishPlan({ plan, etag }: { plan: CompPlan; etag: string | null }) {
  const [open, setOpen] = useState(false);
  const publish = useApplyPlanEdit(plan.id);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Publish</Button>
      <ConfirmModal
        opened={open}
        title={`Publish ${plan.name}?`}
        confirmLabel="Publish"
        pending={publish.isPending}
        error={publish.error}
        onConfirm={() => publish.mutate({ body: { status: "active" }, etag }, { onSuccess: () => setOpen(false) })}
        onClose={() => {
          setOpen(false);
          publish.reset();
        }}
      >
        {`It becomes active: everyone assigned to it earns under it from ${date(plan.effective_from)}, and their pending deals are recalculated. A later change to its terms shows its impact before it is saved.`}
      </ConfirmModal>
    </>
  );
}
