import { z } from "zod";
import { Timestamp } from "../http/date-fields.js";
import { PageQuery } from "../http/pagination.js";

export const ACK_STATUSES = ["pending", "acknowledged"] as const;

export const PlanAcknowledgement = z
  .object({
    id: z.string().describe("pack_…"),
    user_id: z.string(),
    user_name: z.string(),
    plan_id: z.string(),
    plan_name: z.string(),
    plan_version: z.number().int().describe("The plan version to acknowledge: a new version asks again."),
    status: z.enum(ACK_STATUSES),
    document_sha256: z
      .string()
      .nullable()
      .describe("SHA-256 (hex) of the document as acknowledged; null while pending."),
    acknowledged_at: Timestamp.nullable(),
    created_at: Timestamp.describe("When the person was asked: the assignment, or the new version."),
  })
  .meta({ id: "PlanAcknowledgement" });
export type PlanAcknowledgement = z.infer<typeof PlanAcknowledgement>;

export const PlanAcknowledgementDetail = PlanAcknowledgement.extend({
  document: z
    .string()
    .describe(
      "The plan version's terms as a printable plain-text document: rates in percent, quota, cap, clawback, dates.",
    ),
  current_document_sha256: z.string().describe("SHA-256 (hex) of `document` as it reads now."),
}).meta({ id: "PlanAcknowledgementDetail" });
export type PlanAcknowledgementDetail = z.infer<typeof PlanAcknowledgementDetail>;

export const ListPlanAcknowledgementsQuery = PageQuery.extend({
  status: z.enum(ACK_STATUSES).optional().describe("pending: not acknowledged yet."),
  user_id: z.string().min(1).max(100).optional(),
}).strict();
export type ListPlanAcknowledgementsQuery = z.infer<typeof ListPlanAcknowledgementsQuery>;

export const MyPlanAcknowledgementsQuery = PageQuery.extend({
  status: z.enum(ACK_STATUSES).optional(),
}).strict();
export type MyPlanAcknowledgementsQuery = z.infer<typeof MyPlanAcknowledgementsQuery>;

export const AcknowledgeBody = z
  .strictObject({
    document_sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, "must be 64 lowercase hex digits")
      .optional()
      .describe("The SHA-256 of the document the person read; if the document changed since → 409."),
  })
  .meta({ id: "AcknowledgePlan" });
export type AcknowledgeBody = z.infer<typeof AcknowledgeBody>;
