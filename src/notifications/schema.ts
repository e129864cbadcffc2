import { z } from "zod";
import { Timestamp } from "../http/date-fields.js";
import { PageQuery } from "../http/pagination.js";
import { DELIVERY_STATUSES, NOTIFICATION_KINDS, SWITCHABLE_KINDS } from "./kinds.js";

const Kind = z.enum(NOTIFICATION_KINDS).meta({ id: "NotificationKind" });

export const NotificationPreference = z
  .object({
    kind: Kind,
    enabled: z.boolean().describe("False when the person turned this kind off."),
    switchable: z.boolean().describe("False for security messages (invitation, password_reset): always sent."),
  })
  .meta({ id: "NotificationPreference" });

export const NotificationSettingsBody = z
  .object({
    email_configured: z
      .boolean()
      .describe("False when this service has no CTS_SMTP_URL: nothing is emailed, whatever the choices."),
    kinds: z.array(NotificationPreference),
  })
  .meta({ id: "NotificationSettings" });
export type NotificationSettingsBody = z.infer<typeof NotificationSettingsBody>;

export const UpdateNotificationsBody = z
  .strictObject({
    kinds: z
      .partialRecord(z.enum(SWITCHABLE_KINDS as [string, ...string[]]), z.boolean())
      .refine((v) => Object.keys(v).length > 0, "must name at least one kind")
      .describe(`Kinds to turn on (true) or off (false): ${SWITCHABLE_KINDS.join(", ")}. Others stay as they are.`),
  })
  .meta({ id: "UpdateNotifications" });
export type UpdateNotificationsBody = z.infer<typeof UpdateNotificationsBody>;

export const NotificationDelivery = z
  .object({
    id: z.string().describe("ntf_…"),
    kind: Kind,
    user_id: z.string(),
    event_id: z
      .string()
      .nullable()
      .describe("The event that caused it; null for invitations, resets, plans, weekly digests."),
    to: z.string().describe("The address it was sent to."),
    status: z.enum(DELIVERY_STATUSES).describe("pending (queued or retrying), sent, failed (refused or given up)."),
    attempt_count: z.number().int(),
    next_attempt_at: Timestamp.nullable().describe("When a pending delivery is tried next."),
    last_error: z.string().nullable().describe("The mail server's last refusal, e.g. `550 mailbox unavailable`."),
    sent_at: Timestamp.nullable(),
    created_at: Timestamp,
  })
  .meta({ id: "NotificationDelivery" });
export type NotificationDelivery = z.infer<typeof NotificationDelivery>;

export const ListNotificationDeliveriesQuery = PageQuery.extend({
  status: z.enum(DELIVERY_STATUSES).optional(),
  user_id: z.string().min(1).max(100).optional(),
  kind: z.enum(NOTIFICATION_KINDS).optional(),
}).strict();
export type ListNotificationDeliveriesQuery = z.infer<typeof ListNotificationDeliveriesQuery>;
