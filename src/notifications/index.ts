// Email notifications as other folders see them: the routes, the work source, queueing a direct message.
// nodemailer stays lazy behind mailer.ts (loaded when the worker starts with CTS_SMTP_URL set).
export { notificationSource } from "./delivery-source.js";
export { type DirectMessage, enqueueMessage } from "./enqueue.js";
export { NOTIFICATION_KINDS, type NotificationKind } from "./kinds.js";
export { listNotificationDeliveries } from "./list-deliveries.js";
export { createMailer, type Mailer } from "./mailer.js";
export { renderMessage } from "./render.js";
export { notificationRoutes } from "./routes.js";
export { ListNotificationDeliveriesQuery, NotificationDelivery } from "./schema.js";
export type { NotificationSettings } from "./settings.js";
