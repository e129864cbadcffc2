import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { operations } from "../../api/schema";
import { dealKeys } from "../deals/queries";
import { homeKeys } from "../home/queries";
import { spiffKeys } from "./queries";

export type CreateSpiffBody = operations["createSpiff"]["requestBody"]["content"]["application/json"];
export type UpdateSpiffBody = NonNullable<operations["updateSpiff"]["requestBody"]>["content"]["application/json"];

/**
 * A SPIFF write recalculates the pending deals in its window (inline, or as a background job), so the
 * SPIFF lists and every commission, deal and statement read are read again.
 */
function useInvalidateAfterSpiff() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: spiffKeys.all }),
      queryClient.invalidateQueries({ queryKey: dealKeys.all }),
      queryClient.invalidateQueries({ queryKey: homeKeys.all }),
      // The team page's statements (team/teamData.ts).
      queryClient.invalidateQueries({ queryKey: ["statement"] }),
    ]);
}

export function useCreateSpiff() {
  const invalidate = useInvalidateAfterSpiff();
  return useMutation({
    mutationFn: (body: CreateSpiffBody) => unwrap(api.POST("/api/v1/spiffs", { body })),
    onSuccess: invalidate,
  });
}

export function useUpdateSpiff() {
  const invalidate = useInvalidateAfterSpiff();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateSpiffBody }) =>
      unwrap(api.PATCH("/api/v1/spiffs/{id}", { params: { path: { id } }, body })),
    onSuccess: invalidate,
  });
}
