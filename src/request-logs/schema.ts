import { z } from "zod";
import { Timestamp, TimestampInput } from "../http/date-fields.js";
import { queryInt } from "../http/input-fields.js";
import { PageQuery } from "../http/pagination.js";

export const RequestLog = z
  .object({
    id: z.string().describe("The request id (req_…), as sent in the Request-Id header."),
    key_id: z.string().nullable().describe("The API key (key_…) that made the request; null for a session or no key."),
    user_id: z
      .string()
      .nullable()
      .describe("The signed-in person (usr_…) whose session cookie made the request; null for a key or no session."),
    method: z.string(),
    path: z.string().describe("Path and query string."),
    status: z.number().int(),
    duration_ms: z.number(),
    client_ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    created_at: Timestamp,
  })
  .meta({ id: "RequestLog" });
export type RequestLog = z.infer<typeof RequestLog>;

export const ListRequestLogsQuery = PageQuery.extend({
  key_id: z.string().optional().describe("Only requests made with this API key (key_…)."),
  user_id: z.string().optional().describe("Only requests made by this person's sessions (usr_…)."),
  status: queryInt(z.number().min(100).max(599)).optional(),
  since: TimestampInput.optional().describe("Only requests at or after this time (inclusive)."),
}).strict();
export type ListRequestLogsQuery = z.infer<typeof ListRequestLogsQuery>;
