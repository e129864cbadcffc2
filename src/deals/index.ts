// The deals feature as other folders see it: its routes, the deal services (read, write, sync, workflow,
// disputes, adjustments, preview) and schemas.
export { bulkUpsert } from "./bulk.js";
export { dealHistory } from "./history.js";
export { previewDeal } from "./preview.js";
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
export { createAdjustment } from "./service-adjustments.js";
export { openDispute, resolveDispute } from "./service-disputes.js";
export { compactDealCounts, getDeal, listDeals } from "./service-read.js";
export { approveDeal, markDealPaid, rejectDeal } from "./service-workflow.js";
export { createDeal, updateDeal } from "./service-write.js";
export { upsertDeal } from "./upsert.js";
