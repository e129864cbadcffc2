import { NoContent } from "../commissions/schema.js";
import { IdParams } from "../http/input-fields.js";
import { pageReply } from "../http/list-reply.js";
import { listOf } from "../http/pagination.js";
import type { App } from "../http/types.js";
import * as assignments from "./assignments-service.js";
import {
  Assignment,
  AssignmentWritten,
  CompPlan,
  CompPlanWritten,
  CreateAssignmentBody,
  CreatePlanBody,
  ListAssignmentsQuery,
  ListPlansQuery,
  UpdateAssignmentBody,
  UpdatePlanBody,
} from "./schema.js";
import * as service from "./service.js";

const tags = ["Comp plans"];

const PLAN_EDIT =
  "Merges: omitted fields stay, null clears a nullable field (tiers: null removes the tiers); tiers and " +
  "deal_type_multipliers are replaced whole. Changing the terms " +
  "(currency, period, quota, rates, tiers, multipliers, minimum, cap, dates) of an active plan creates a new " +
  "`version`; pending lines are recalculated with it, locked lines keep theirs. Name, description and status " +
  "changes keep the version; a status change also recalculates (only active plans earn).";

export function compPlanRoutes(app: App): void {
  app.get(
    "/comp-plans",
    {
      config: { scope: "read" },
      schema: {
        tags,
        summary: "List comp plans",
        description: "Newest first (created_at desc, id desc).",
        querystring: ListPlansQuery,
        response: { 200: listOf(CompPlan) },
      },
    },
    async (req, reply) => pageReply(req, reply, await service.listPlans(req.ctx, req.query)),
  );

  app.get(
    "/comp-plans/:id",
    {
      config: { scope: "read" },
      schema: { tags, summary: "Get a comp plan", params: IdParams, response: { 200: CompPlan } },
    },
    (req) => service.getPlan(req.ctx, req.params.id),
  );

  app.post(
    "/comp-plans",
    {
      config: { scope: "admin" },
      schema: {
        tags,
        summary: "Create a comp plan",
        description:
          "Required: name, period, effective_from, and base_rate or tiers. currency defaults to USD, status to active. " +
          "Tiers ascend from from_attainment 0 and need quota > 0.",
        body: CreatePlanBody,
        response: { 201: CompPlanWritten },
      },
    },
    async (req, reply) => reply.code(201).send(await service.createPlan(req.ctx, req.body)),
  );

  app.patch(
    "/comp-plans/:id",
    {
      config: { scope: "admin", ifMatch: { read: (ctx, p) => service.getPlan(ctx, p.id!), schema: CompPlan } },
      schema: {
        tags,
        summary: "Update a comp plan",
        description: PLAN_EDIT,
        params: IdParams,
        body: UpdatePlanBody,
        response: { 200: CompPlanWritten },
      },
    },
    (req) => service.updatePlan(req.ctx, req.params.id, req.body),
  );

  assignmentRoutes(app);
}

function assignmentRoutes(app: App): void {
  app.get(
    "/comp-plans/:id/assignments",
    {
      config: { scope: "read" },
      schema: {
        tags,
        summary: "List plan assignments",
        description: "The plan's assignments, newest first (created_at desc, id desc).",
        params: IdParams,
        querystring: ListAssignmentsQuery,
        response: { 200: listOf(Assignment) },
      },
    },
    async (req, reply) => pageReply(req, reply, await assignments.listAssignments(req.ctx, req.params.id, req.query)),
  );

  app.post(
    "/comp-plans/:id/assignments",
    {
      config: { scope: "admin" },
      schema: {
        tags,
        summary: "Assign a plan to a user",
        description:
          "Both dates inclusive; effective_to null = open-ended. A user has at most one assignment in force on any " +
          "date: an overlap is 409 conflict. The user's pending lines in the span are recalculated.",
        params: IdParams,
        body: CreateAssignmentBody,
        response: { 201: AssignmentWritten },
      },
    },
    async (req, reply) => reply.code(201).send(await assignments.createAssignment(req.ctx, req.params.id, req.body)),
  );

  app.patch(
    "/plan-assignments/:id",
    {
      config: {
        scope: "admin",
        ifMatch: { read: (ctx, p) => assignments.getAssignment(ctx, p.id!), schema: Assignment },
      },
      schema: {
        tags,
        summary: "Update a plan assignment",
        description: "Merges effective_from, effective_to and quota_override; overlaps are 409 conflict.",
        params: IdParams,
        body: UpdateAssignmentBody,
        response: { 200: AssignmentWritten },
      },
    },
    (req) => assignments.updateAssignment(req.ctx, req.params.id, req.body),
  );

  app.delete(
    "/plan-assignments/:id",
    {
      config: { scope: "admin" },
      schema: {
        tags,
        summary: "Delete a plan assignment",
        description: "The user's pending lines in its span are recalculated.",
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      const jobId = await assignments.deleteAssignment(req.ctx, req.params.id);
      if (jobId) reply.header("Recalculation-Job-Id", jobId);
      return reply.code(204).send(null);
    },
  );
}
