// Plan acknowledgement (docs/notifications.md): the routes; the rows are written by migration 022's triggers.
export { planAcknowledgementRoutes } from "./routes.js";
export { type PlanAcknowledgement, PlanAcknowledgementDetail } from "./schema.js";
