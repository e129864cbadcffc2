import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { QueryOf, Schemas } from "../../api/types";
import { keys } from "../keys";
import { defineQuery } from "../query";

export type Spiff = Schemas["Spiff"];

/** A page of SPIFFs (filter by active). */
export const spiffsQuery = defineQuery("GET /api/v1/spiffs", (query: QueryOf<"listSpiffs">) =>
  queryOptions({
    queryKey: keys.spiffs.list(query),
    queryFn: () => unwrap(api.GET("/api/v1/spiffs", { params: { query } })),
  }),
);
