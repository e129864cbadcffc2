import { NoContent } from "../commissions/index.js";
import { declareRoutes } from "../declare-routes.js";
import type { App } from "../http/types.js";
import { createSpiff } from "./create.js";
import { deleteSpiff } from "./delete.js";
import { listSpiffs } from "./list.js";
import { getSpiff } from "./read.js";
import { CreateSpiffBody, ListSpiffsQuery, Spiff, SpiffWritten, UpdateSpiffBody } from "./schema.js";
import { updateSpiff } from "./update.js";

export function spiffRoutes(app: App): void {
  const spiffs = declareRoutes(app, ["SPIFFs"]).records({
    path: "/spiffs",
    scope: { read: "read", write: "admin" },
    record: Spiff,
    read: getSpiff,
  });
  spiffs.list({ summary: "List SPIFFs", query: ListSpiffsQuery }, ({ ctx, query }) => listSpiffs(ctx, query));
  spiffs.get({ summary: "Get a SPIFF" });

  spiffs.create(
    {
      summary: "Create a SPIFF",
      description:
        "A pending deal in the SPIFF's currency closing in [starts_on, ends_on] (both inclusive) that meets every " +
        "criterion earns a spiff line per credited user (only users in user_ids when given): flat pays " +
        "amount × percent / 100, rate pays credit × rate. No multiplier, minimum or cap.",
      body: CreateSpiffBody,
      response: SpiffWritten,
    },
    ({ ctx, body }) => createSpiff(ctx, body),
  );

  spiffs.update(
    {
      summary: "Update a SPIFF",
      description:
        "Merges top-level fields (criteria and payout are replaced whole). Pending deals in the old and new " +
        "windows are recalculated; locked lines never change.",
      body: UpdateSpiffBody,
      response: SpiffWritten,
    },
    updateSpiff,
  );

  spiffs.remove(
    {
      summary: "Delete a SPIFF",
      description: "Its pending lines go; locked lines keep naming it.",
      response: NoContent,
    },
    deleteSpiff,
  );
}
