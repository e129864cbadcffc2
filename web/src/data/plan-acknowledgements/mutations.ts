import { api, unwrap } from "../../api/client";
import { useWrite } from "../write";

/** The person records that they read this plan version, naming the document they read (its SHA-256). */
export function useAcknowledgePlan(id: string) {
  return useWrite("POST /api/v1/plan-acknowledgements/{id}/acknowledge", (documentSha256: string) =>
    unwrap(
      api.POST("/api/v1/plan-acknowledgements/{id}/acknowledge", {
        params: { path: { id } },
        body: { document_sha256: documentSha256 },
      }),
    ),
  );
}
