import { api, unwrap } from "../../api/client";
import type { BodyOf } from "../../api/types";
import { useWrite } from "../write";

export type CreateSpiffBody = BodyOf<"createSpiff">;
export type UpdateSpiffBody = BodyOf<"updateSpiff">;

/** A SPIFF write recalculates the pending deals in its window (refresh.ts: lines move). */
export function useCreateSpiff() {
  return useWrite("POST /api/v1/spiffs", (body: CreateSpiffBody) => unwrap(api.POST("/api/v1/spiffs", { body })));
}

export function useUpdateSpiff() {
  return useWrite("PATCH /api/v1/spiffs/{id}", ({ id, body }: { id: string; body: UpdateSpiffBody }) =>
    unwrap(api.PATCH("/api/v1/spiffs/{id}", { params: { path: { id } }, body })),
  );
}
