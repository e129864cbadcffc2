import { MAY } from "../access/index.js";
import { pageReply } from "../http/list-reply.js";
import { listOf, NEWEST_FIRST } from "../http/pagination.js";
import type { App } from "../http/types.js";
import { listNotificationDeliveries } from "./list-deliveries.js";
import { getMyNotifications, updateMyNotifications } from "./preferences.js";
import {
  ListNotificationDeliveriesQuery,
  NotificationDelivery,
  NotificationSettingsBody,
  UpdateNotificationsBody,
} from "./schema.js";

const tags = ["Notifications"];

/** `GET/PUT /me/notifications` and `GET /notifications/deliveries` (docs/notifications.md). */
export function notificationRoutes(app: App, emailConfigured: boolean): void {
  app.get(
    "/me/notifications",
    {
      config: { scope: "read", roles: MAY.read, sessionOnly: true },
      schema: {
        tags,
        summary: "Get your notification settings",
        operationId: "getMyNotifications",
        description:
          "Each kind of email on or off for the signed-in person (an API key → 403). Security messages (invitation, password_reset) are always on.",
        response: { 200: NotificationSettingsBody },
      },
    },
    (req) => getMyNotifications(req.ctx, emailConfigured),
  );
  app.post(
    "/me/notifications",
    {
      config: { scope: "read", roles: MAY.read, sessionOnly: true },
      schema: {
        tags,
        summary: "Turn kinds of email on or off",
        operationId: "updateMyNotifications",
        description:
          "Names the kinds to change; the others stay (a partial update of your own settings, so POST: they have no record ETag). A security kind or an unknown kind → 422. An API key → 403. Applies to messages queued from now on.",
        body: UpdateNotificationsBody,
        response: { 200: NotificationSettingsBody },
      },
    },
    (req) => updateMyNotifications(req.ctx, req.body, emailConfigured),
  );
  app.get(
    "/notifications/deliveries",
    {
      config: { scope: "admin", roles: MAY.adminRead },
      schema: {
        tags,
        summary: "List email deliveries",
        operationId: "listNotificationDeliveries",
        description: `The email delivery log: who was sent what, when, and the mail server's last refusal. ${NEWEST_FIRST} Never holds a token.`,
        querystring: ListNotificationDeliveriesQuery,
        response: { 200: listOf(NotificationDelivery) },
      },
    },
    async (req, reply) => pageReply(req, reply, await listNotificationDeliveries(req.ctx, req.query)),
  );
}
