// The disputes feature as other folders see it: its routes, the dispute services and schemas.
// Opening and resolving change a deal, so those services live in deals/ (see ARCHITECTURE.md); deals
// passes the resolution in to `resolveDisputeRoutes` (POST /disputes/{id}/resolve is declared here).
export { listDisputes } from "./list.js";
export { disputeOf, getDispute } from "./read.js";
export { type DisputeRow, lockOpenDispute, recordOpenedDispute, recordResolution } from "./record.js";
export { disputeRoutes, resolveDisputeRoutes } from "./routes.js";
export { Dispute, ListDisputesQuery, OpenDisputeBody, ResolveDisputeBody } from "./schema.js";
