import { api, unwrap } from "../../api/client";
import type { BodyOf } from "../../api/types";
import { useWrite } from "../write";

export type CreateDrawBody = BodyOf<"createDraw">;
export type EndDrawBody = BodyOf<"endDraw">;
export type ForgiveDrawBody = BodyOf<"forgiveDraw">;

/** A draw pays nothing until a payout run settles its periods (API.md §18). */
export function useCreateDraw() {
  return useWrite("POST /api/v1/draws", (body: CreateDrawBody) => unwrap(api.POST("/api/v1/draws", { body })));
}

export function useEndDraw() {
  return useWrite("POST /api/v1/draws/{id}/end", ({ id, body }: { id: string; body: EndDrawBody }) =>
    unwrap(api.POST("/api/v1/draws/{id}/end", { params: { path: { id } }, body })),
  );
}

export function useForgiveDraw() {
  return useWrite("POST /api/v1/draws/{id}/forgive", ({ id, body }: { id: string; body: ForgiveDrawBody }) =>
    unwrap(api.POST("/api/v1/draws/{id}/forgive", { params: { path: { id } }, body })),
  );
}
