import type { DealDetail } from "../../data/deals/queries";

/** The deals the console edits and deletes: pending ones, before an admin approves or rejects them. */
export const editable = (deal: Pick<DealDetail, "status">) => deal.status === "pending";
