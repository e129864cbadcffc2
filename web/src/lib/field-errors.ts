import { ApiError } from "../api/errors";

/** A 422's details by the field they name (`splits[1].percent` stays as written), for a form's fields. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !error.details) return {};
  const byField: Record<string, string> = {};
  for (const { param, message } of error.details) byField[param] ??= message;
  return byField;
}
