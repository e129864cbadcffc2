import type { Tx } from "../context.js";
import { AppError, conflict, type ErrorDetail } from "../errors.js";
import * as repo from "./repository.js";

// The refusals the deal services share: a 422 from validation details, a CRM id another deal holds, a
// locked deal.

export function throwIfInvalid(details: ErrorDetail[]): void {
  if (details.length === 0) return;
  throw new AppError(
    "validation_error",
    `Invalid deal: ${details.map((d) => `${d.param} ${d.message}`).join("; ")}`,
    details,
  );
}

/** 409 when another deal already holds the CRM id. */
export async function checkExternalId(tx: Tx, externalId: string | null, dealId: string | null): Promise<void> {
  if (externalId === null) return;
  const [other] = await repo.findByExternalIds(tx, [externalId]);
  if (other && other.id !== dealId)
    throw conflict(`A deal with external_id ${externalId} already exists (${other.id})`);
}

export function invalidTransition(deal: repo.DealRecord, action: string): AppError {
  return new AppError(
    "invalid_transition",
    `Deal ${deal.id} is ${deal.status}; only pending and rejected deals can be ${action}`,
  );
}
