// The disputes feature as other folders see it: GET /disputes, the dispute services and schemas.
// Opening and resolving change a deal, so those services live in deals/ (see ARCHITECTURE.md).
export { disputeRoutes } from "./routes.js";
export { Dispute, ListDisputesQuery, OpenDisputeBody, ResolveDisputeBody } from "./schema.js";
export {
  type DisputeRow,
  disputeOf,
  getDispute,
  listDisputes,
  lockOpenDispute,
  recordOpenedDispute,
  recordResolution,
} from "./service.js";
