import { IdParams } from "../http/input-fields.js";
import { listOf } from "../http/pagination.js";
import {
  ListNotificationDeliveriesQuery,
  listNotificationDeliveries,
  NotificationDelivery,
} from "../notifications/index.js";
import {
  getPlanAcknowledgement,
  ListPlanAcknowledgementsQuery,
  listPlanAcknowledgements,
  PlanAcknowledgement,
  PlanAcknowledgementDetail,
} from "../plan-acknowledgements/index.js";
import { defineTool, type McpTool, READ_ONLY, READS } from "./tool.js";

/** Plan acknowledgements (read keys) and the email delivery log (admin keys), docs/notifications.md. */
export const NOTIFICATION_TOOLS: readonly McpTool[] = [
  defineTool({
    name: "list_plan_acknowledgements",
    title: "List plan acknowledgements",
    description:
      "Who was asked to acknowledge which plan version, and who has not (GET /api/v1/plan-acknowledgements): " +
      `filters status (pending, acknowledged), user_id. Never gates pay. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: ListPlanAcknowledgementsQuery,
    output: listOf(PlanAcknowledgement),
    annotations: READS,
    run: (ctx, args) => listPlanAcknowledgements(ctx, args),
  }),
  defineTool({
    name: "get_plan_acknowledgement",
    title: "Get a plan acknowledgement",
    description: `One request by id (pack_…) with the plan version's terms as a printable document and its SHA-256. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: IdParams,
    output: PlanAcknowledgementDetail,
    annotations: READS,
    run: (ctx, { id }) => getPlanAcknowledgement(ctx, id),
  }),
  defineTool({
    name: "list_notification_deliveries",
    title: "List email deliveries",
    description:
      "The email delivery log, newest first, with the mail server's last refusal (GET " +
      `/api/v1/notifications/deliveries): filters status, user_id, kind. Never a token. ${READ_ONLY}`,
    scope: "admin",
    access: "admin",
    input: ListNotificationDeliveriesQuery,
    output: listOf(NotificationDelivery),
    annotations: READS,
    run: (ctx, args) => listNotificationDeliveries(ctx, args),
  }),
];
