// Plan acknowledgement (docs/notifications.md): the routes, and the email asking for one; the rows are
// written by migration 022's triggers.

export { getPlanAcknowledgement, listPlanAcknowledgements } from "./acknowledgements.js";
export { askToAcknowledge } from "./ask.js";
export { planAcknowledgementRoutes } from "./routes.js";
export { ListPlanAcknowledgementsQuery, PlanAcknowledgement, PlanAcknowledgementDetail } from "./schema.js";
