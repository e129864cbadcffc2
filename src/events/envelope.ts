import { z } from "zod";
import { Timestamp } from "../http/date-fields.js";
import type { EventType } from "./catalogue.js";

/**
 * The body of an event's delivery (API.md §6) for the event types whose `data` has one shape: a named
 * schema (`id`, an OpenAPI component), so each shape is described once, however many types share it.
 */
export function eventBody<const T extends EventType, D extends z.ZodRawShape>(
  id: string,
  types: readonly [T, ...T[]],
  data: D,
) {
  return z
    .object({
      id: z.string().describe("evt_…: the same on every retry of the event (the `webhook-id` header)."),
      type: z.enum(types),
      created_at: Timestamp,
      data: z.object(data),
    })
    .meta({ id });
}
