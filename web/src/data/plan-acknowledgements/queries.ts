import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { QueryOf, Schemas } from "../../api/types";
import { keys } from "../keys";
import { defineQuery } from "../query";

export type PlanAcknowledgement = Schemas["PlanAcknowledgement"];
export type PlanAcknowledgementDetail = Schemas["PlanAcknowledgementDetail"];

/** The signed-in person's plan versions to read and acknowledge, and those acknowledged (session only). */
export const myAcknowledgementsQuery = defineQuery(
  "GET /api/v1/me/plan-acknowledgements",
  (query: QueryOf<"listMyPlanAcknowledgements">) =>
    queryOptions({
      queryKey: keys.planAcknowledgements.list({ mine: true, ...query }),
      queryFn: () => unwrap(api.GET("/api/v1/me/plan-acknowledgements", { params: { query } })),
    }),
);

/** Who was asked to acknowledge which plan version, and who has not (admins and finance). */
export const acknowledgementsQuery = defineQuery(
  "GET /api/v1/plan-acknowledgements",
  (query: QueryOf<"listPlanAcknowledgements">) =>
    queryOptions({
      queryKey: keys.planAcknowledgements.list(query),
      queryFn: () => unwrap(api.GET("/api/v1/plan-acknowledgements", { params: { query } })),
    }),
);

/** One request with the plan version's document and its SHA-256. */
export const acknowledgementQuery = defineQuery("GET /api/v1/plan-acknowledgements/{id}", (id: string) =>
  queryOptions({
    queryKey: keys.planAcknowledgements.detail(id),
    queryFn: () => unwrap(api.GET("/api/v1/plan-acknowledgements/{id}", { params: { path: { id } } })),
  }),
);
