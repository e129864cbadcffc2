import { useMutation } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { operations } from "../../api/schema";

export type PreviewBody = operations["previewCommission"]["requestBody"]["content"]["application/json"];

/** POST /commissions/preview: persists nothing, so nothing to invalidate. */
export function usePreview() {
  return useMutation({
    mutationFn: (body: PreviewBody) => unwrap(api.POST("/api/v1/commissions/preview", { body })),
  });
}
