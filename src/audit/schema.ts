import { z } from "zod";
import { ACTOR_TYPES } from "../enums.js";
import { Timestamp, TimestampInput } from "../http/date-fields.js";
import { PageQuery } from "../http/pagination.js";

/** What an audit row holds of a record (every writer stores an object); read back as stored. */
const Snapshot = z.unknown().meta({ type: "object" }).nullable();

export const AuditEvent = z
  .object({
    id: z.string().describe("aud_…"),
    actor: z.object({
      type: z.enum(ACTOR_TYPES),
      id: z
        .string()
        .nullable()
        .describe("The API key id (key_…), the signed-in person's user id (usr_…), or null for the owner CLI."),
      name: z.string().describe("The key's name, the person's name, or owner-cli."),
    }),
    action: z.string().describe("e.g. deal.approve, user.update, api_key.revoke, session.login"),
    resource: z.string(),
    resource_id: z.string(),
    before: Snapshot.describe("The record before the change (null when there is none, e.g. a creation)."),
    after: Snapshot.describe("The record after the change (null when there is none, e.g. a deletion)."),
    request_id: z.string().nullable(),
    created_at: Timestamp,
  })
  .meta({ id: "AuditEvent" });
export type AuditEvent = z.infer<typeof AuditEvent>;

export const ListAuditEventsQuery = PageQuery.extend({
  resource: z.string().optional().describe("e.g. deal, user, api_key"),
  resource_id: z.string().optional(),
  actor: z
    .string()
    .optional()
    .describe("An API key id (key_…), a user id (usr_…: what that person did signed in), or owner-cli."),
  since: TimestampInput.optional().describe("Only events at or after this time (inclusive)."),
}).strict();
export type ListAuditEventsQuery = z.infer<typeof ListAuditEventsQuery>;
