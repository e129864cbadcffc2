// The deals feature as other folders see it: its routes, the deal services (a file per action: read,
// list, create, update, delete, upsert, bulk upsert, approve, reject, mark paid, open and resolve a
// dispute, adjust, preview) and schemas.
export { createAdjustment } from "./adjust.js";
export { approveDeal } from "./approve.js";
export { bulkUpsert } from "./bulk-upsert.js";
export { cancelDeal } from "./cancel.js";
export { previewClawbacks } from "./clawback-preview.js";
export { createDeal } from "./create.js";
export { dealHistory } from "./history.js";
export { compactDealCounts, listDeals } from "./list.js";
export { listRefunds } from "./list-refunds.js";
export { markDealPaid } from "./mark-paid.js";
export { openDispute } from "./open-dispute.js";
export { previewDeal } from "./preview.js";
export { getDeal } from "./read.js";
export { refundDeal } from "./refund.js";
export { rejectDeal } from "./reject.js";
export { resolveDispute } from "./resolve-dispute.js";
export { dealRoutes } from "./routes/index.js";
export {
  BulkBody,
  BulkItem,
  CancelDealBody,
  ClawbackPreview,
  ClawbackPreviewBody,
  CreateDealBody,
  Deal,
  DealCancelled,
  DealDetail,
  DealHistoryQuery,
  DealStatus,
  ExternalIdParams,
  ListDealsQuery,
  ListRefundsQuery,
  PreviewBody,
  Refund,
  RefundBody,
  RejectDealBody,
  UpdateDealBody,
} from "./schema.js";
export { lockDealsForPayment, settlePaidDeals } from "./settle.js";
export { updateDeal } from "./update.js";
export { upsertDeal } from "./upsert.js";
export {
  previewUpserts,
  type StoredDealInput,
  type UpsertAction,
  type UpsertCheck,
  type UpsertPreview,
} from "./upsert-preview.js";
