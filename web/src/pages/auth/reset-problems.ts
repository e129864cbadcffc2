import { ApiError } from "../../api/errors";
import { passwordProblemsOf } from "./passwordRules";

/** A refusal the form shows above its fields: the server's words, when to try again, the request id. */
export interface FormAlert {
  message: string;
  /** A 429's Retry-After in words ("Try again in 4 minutes."). */
  retry?: string;
  requestId: string | null;
}

const asApiError = (error: unknown): ApiError | null => (error instanceof ApiError ? error : null);

/** A 429's Retry-After as a sentence, rounded up to what a person waits. */
export function retryIn(seconds: number | undefined): string | undefined {
  if (seconds === undefined) return undefined;
  if (seconds < 60)
    return `Try again in ${Math.max(1, Math.ceil(seconds))} second${Math.ceil(seconds) > 1 ? "s" : ""}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Try again in ${minutes} minute${minutes > 1 ? "s" : ""}.`;
}

function alertOf(error: ApiError): FormAlert {
  const retry = error.status === 429 ? retryIn(error.retryAfterSeconds) : undefined;
  return { message: error.message, requestId: error.requestId, ...(retry ? { retry } : {}) };
}

/**
 * What the "Forgot password?" form shows for a refused request: a 422 about the email on its field, any
 * other refusal (429, 403, 5xx) above the form. Its 202 is the same whatever the email (§4).
 */
export function forgotPasswordProblems(error: unknown): { email?: string; alert?: FormAlert } {
  const refused = asApiError(error);
  if (!refused) return error instanceof Error ? { alert: { message: error.message, requestId: null } } : {};
  const onEmail = refused.status === 422 ? refused.details?.find((d) => d.param === "email") : undefined;
  if (onEmail) return { email: `This email ${onEmail.message}${/[.!?]$/.test(onEmail.message) ? "" : "."}` };
  return { alert: alertOf(refused) };
}

/**
 * What the reset-password form shows for a refused confirmation: a link that cannot be used (404: the
 * server says why; a new one is asked for), the password's rules broken (422) on its field, anything
 * else (409 inactive, 429, 5xx) above the form.
 */
export function resetPasswordProblems(error: unknown): {
  linkRefused?: string;
  password: string[];
  alert?: FormAlert;
} {
  const refused = asApiError(error);
  if (!refused)
    return { password: [], ...(error instanceof Error ? { alert: { message: error.message, requestId: null } } : {}) };
  if (refused.status === 404) return { linkRefused: refused.message, password: [] };
  const password = passwordProblemsOf(refused, "password");
  if (password.length > 0) return { password };
  return { password: [], alert: alertOf(refused) };
}
