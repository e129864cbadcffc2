import { MAY } from "../access/index.js";
import { IdParams } from "../http/input-fields.js";
import { pageReply } from "../http/list-reply.js";
import { listOf, NEWEST_FIRST } from "../http/pagination.js";
import type { App } from "../http/types.js";
import {
  acknowledgePlan,
  getPlanAcknowledgement,
  listMyPlanAcknowledgements,
  listPlanAcknowledgements,
} from "./acknowledgements.js";
import {
  AcknowledgeBody,
  ListPlanAcknowledgementsQuery,
  MyPlanAcknowledgementsQuery,
  PlanAcknowledgement,
  PlanAcknowledgementDetail,
} from "./schema.js";

const tags = ["Plan acknowledgements"];

/** The plan acknowledgement routes (docs/notifications.md "Plan acknowledgement"). */
export function planAcknowledgementRoutes(app: App): void {
  app.get(
    "/plan-acknowledgements",
    {
      config: { scope: "read", roles: MAY.readPayouts },
      schema: {
        tags,
        summary: "List plan acknowledgements",
        operationId: "listPlanAcknowledgements",
        description: `Who was asked to acknowledge which plan version, and who has not (\`status=pending\`). Admins and finance; keys of any scope. ${NEWEST_FIRST} Acknowledgement never gates pay.`,
        querystring: ListPlanAcknowledgementsQuery,
        response: { 200: listOf(PlanAcknowledgement) },
      },
    },
    async (req, reply) => pageReply(req, reply, await listPlanAcknowledgements(req.ctx, req.query)),
  );
  app.get(
    "/me/plan-acknowledgements",
    {
      config: { scope: "read", roles: MAY.read, sessionOnly: true },
      schema: {
        tags,
        summary: "List your plan acknowledgements",
        operationId: "listMyPlanAcknowledgements",
        description: `The signed-in person's plan versions to read and acknowledge (pending) and those acknowledged. ${NEWEST_FIRST} An API key → 403.`,
        querystring: MyPlanAcknowledgementsQuery,
        response: { 200: listOf(PlanAcknowledgement) },
      },
    },
    async (req, reply) => pageReply(req, reply, await listMyPlanAcknowledgements(req.ctx, req.query)),
  );
  app.get(
    "/plan-acknowledgements/:id",
    {
      config: { scope: "read", roles: MAY.read },
      schema: {
        tags,
        summary: "Get a plan acknowledgement with the plan's document",
        operationId: "getPlanAcknowledgement",
        description:
          "The plan version's terms as a printable document (rates in percent, quota, cap, clawback, dates) and its SHA-256. Your own, your reports' (a manager), or anyone's (admins, finance); otherwise 404.",
        params: IdParams,
        response: { 200: PlanAcknowledgementDetail },
      },
    },
    (req) => getPlanAcknowledgement(req.ctx, req.params.id),
  );
  app.post(
    "/plan-acknowledgements/:id/acknowledge",
    {
      config: { scope: "read", roles: MAY.read, sessionOnly: true },
      schema: {
        tags,
        summary: "Acknowledge your plan",
        operationId: "acknowledgePlan",
        description:
          "The person asked records that they read this plan version: who, when, the version and the SHA-256 of the document. Someone else's → 403 (404 when you cannot see it); already acknowledged → 409; `document_sha256` given and the document changed → 409.",
        params: IdParams,
        body: AcknowledgeBody,
        response: { 200: PlanAcknowledgementDetail },
      },
    },
    (req) => acknowledgePlan(req.ctx, req.params.id, req.body),
  );
}
