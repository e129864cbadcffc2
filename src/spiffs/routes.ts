import { NoContent } from "../commissions/schema.js";
import { IdParams } from "../http/input-fields.js";
import { pageReply } from "../http/list-reply.js";
import { listOf } from "../http/pagination.js";
import type { App } from "../http/types.js";
import { CreateSpiffBody, ListSpiffsQuery, Spiff, SpiffWritten, UpdateSpiffBody } from "./schema.js";
import * as service from "./service.js";

const tags = ["SPIFFs"];

export function spiffRoutes(app: App): void {
  app.get(
    "/spiffs",
    {
      config: { scope: "read" },
      schema: {
        tags,
        summary: "List SPIFFs",
        description: "Newest first (created_at desc, id desc).",
        querystring: ListSpiffsQuery,
        response: { 200: listOf(Spiff) },
      },
    },
    async (req, reply) => pageReply(req, reply, await service.listSpiffs(req.ctx, req.query)),
  );

  app.get(
    "/spiffs/:id",
    { config: { scope: "read" }, schema: { tags, summary: "Get a SPIFF", params: IdParams, response: { 200: Spiff } } },
    (req) => service.getSpiff(req.ctx, req.params.id),
  );

  app.post(
    "/spiffs",
    {
      config: { scope: "admin" },
      schema: {
        tags,
        summary: "Create a SPIFF",
        description:
          "A pending deal in the SPIFF's currency closing in [starts_on, ends_on] (both inclusive) that meets every " +
          "criterion earns a spiff line per credited user (only users in user_ids when given): flat pays " +
          "amount × percent / 100, rate pays credit × rate. No multiplier, minimum or cap.",
        body: CreateSpiffBody,
        response: { 201: SpiffWritten },
      },
    },
    async (req, reply) => reply.code(201).send(await service.createSpiff(req.ctx, req.body)),
  );

  app.patch(
    "/spiffs/:id",
    {
      config: { scope: "admin", ifMatch: { read: (ctx, p) => service.getSpiff(ctx, p.id!), schema: Spiff } },
      schema: {
        tags,
        summary: "Update a SPIFF",
        description:
          "Merges top-level fields (criteria and payout are replaced whole). Pending deals in the old and new " +
          "windows are recalculated; locked lines never change.",
        params: IdParams,
        body: UpdateSpiffBody,
        response: { 200: SpiffWritten },
      },
    },
    (req) => service.updateSpiff(req.ctx, req.params.id, req.body),
  );

  app.delete(
    "/spiffs/:id",
    {
      config: { scope: "admin" },
      schema: {
        tags,
        summary: "Delete a SPIFF",
        description: "Its pending lines go; locked lines keep naming it.",
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      const jobId = await service.deleteSpiff(req.ctx, req.params.id);
      if (jobId) reply.header("Recalculation-Job-Id", jobId);
      return reply.code(204).send(null);
    },
  );
}
