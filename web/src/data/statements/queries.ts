import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { Schemas } from "../../api/types";
import { keys } from "../keys";
import { defineQuery } from "../query";

export type Statement = Schemas["Statement"];
export type StatementPlan = Statement["plans"][number];

/** A person's statement for one period ("2026-Q3", "2026-07", "2026"): home, statement and team pages. */
export const statementQuery = defineQuery("GET /api/v1/users/{id}/statement", (userId: string, period: string) =>
  queryOptions({
    queryKey: keys.statements.detail(userId, period),
    queryFn: () =>
      unwrap(api.GET("/api/v1/users/{id}/statement", { params: { path: { id: userId }, query: { period } } })),
  }),
);
