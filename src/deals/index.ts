// The deals feature as other folders see it: its routes, the deal services (a file per action: read,
// list, create, update, delete, upsert, bulk upsert, approve, reject, mark paid, open and resolve a
// dispute, adjust, preview) and schemas.
export { createAdjustment } from "./adjust.js";
export { approveDeal } from "./approve.js";
export { bulkUpsert } from "./bulk-upsert.js";
export { createDeal } from "./create.js";
export { dealHistory } from "./history.js";
export { compactDealCounts, listDeals } from "./list.js";
export { markDealPaid } from "./mark-paid.js";
export { openDispute } from "./open-dispute.js";
export { previewDeal } from "./preview.js";
export { getDeal } from "./read.js";
export { rejectDeal } from "./reject.js";
export { resolveDispute } from "./resolve-dispute.js";
export { dealRoutes } from "./routes.js";
export {
  BulkBody,
  CreateDealBody,
  Deal,
  DealDetail,
  DealHistoryQuery,
  DealStatus,
  ExternalIdParams,
  ListDealsQuery,
  PreviewBody,
  RejectDealBody,
  UpdateDealBody,
} from "./schema.js";
export { lockDealsForPayment, settlePaidDeals } from "./settle.js";
export { updateDeal } from "./update.js";
export { upsertDeal } from "./upsert.js";
