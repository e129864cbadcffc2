// Payout runs as other folders see them (API.md §13): their routes, services and schemas.
export { cancelPayoutRun } from "./cancel.js";
export { createPayoutRun } from "./create.js";
export { exportPayoutRun } from "./export-run.js";
export { finalizePayoutRun } from "./finalize.js";
export { listPayoutRuns } from "./list.js";
export { getPayoutRun } from "./read.js";
export { payoutRunRoutes } from "./routes.js";
export {
  CreatePayoutRunBody,
  ExportPayoutRunQuery,
  ListPayoutRunsQuery,
  PayoutRun,
  PayoutRunDetail,
  PayoutRunSummary,
  RunLinesQuery,
} from "./schema.js";
