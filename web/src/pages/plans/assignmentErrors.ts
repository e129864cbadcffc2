import { ApiError } from "../../api/errors";
import { fieldErrors } from "../../lib/field-errors";

/**
 * A write's errors by the field they concern: a 422's details name theirs; a 409 overlap is about the
 * dates, so it is shown on the start date; anything else is for the form as a whole.
 */
export function assignmentErrors(error: unknown): { fields: Record<string, string>; form?: ApiError | Error } {
  if (!error) return { fields: {} };
  const fields = fieldErrors(error);
  if (error instanceof ApiError && error.status === 409) return { fields: { effective_from: error.message } };
  if (Object.keys(fields).length > 0) return { fields };
  return { fields, form: error instanceof Error ? error : new Error(String(error)) };
}
