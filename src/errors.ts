import { z } from "zod";

/** The closed list of error codes of API.md §2 and the HTTP status each maps to. */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  invalid_transition: 409,
  conflict: 409,
  idempotency_key_in_use: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  validation_error: 422,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

const ErrorDetail = z.object({
  param: z.string(),
  message: z.string(),
  row: z.number().optional().describe("CSV imports: the row as a spreadsheet numbers it (the header is row 1)."),
  field: z.string().nullable().optional().describe("CSV imports: the row's field; null for the whole row."),
});
export type ErrorDetail = z.infer<typeof ErrorDetail>;

/** The contract's error body (API.md §2); the OpenAPI document's `Error` component is generated from it. */
export const ErrorBody = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
      message: z.string().describe("Written for the client's developer."),
      request_id: z.string().describe("Equals the Request-Id response header."),
      details: z.array(ErrorDetail).optional().describe("For validation errors: one entry per problem."),
    }),
  })
  .describe("Every error response: one code from a closed list, a message and the request id.");
export type ErrorBody = z.infer<typeof ErrorBody>;

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
    this.status = ERROR_STATUS[code];
  }
}

export function notFound(resource: string, id: string): AppError {
  return new AppError("not_found", `${resource} ${id} not found`);
}

export function validationError(param: string, message: string): AppError {
  return new AppError("validation_error", `${param} ${message}`, [{ param, message }]);
}

export function conflict(message: string): AppError {
  return new AppError("conflict", message);
}

/** The one place an AppError becomes the body REST and MCP answer with. */
export function errorBody(err: AppError, requestId: string): ErrorBody {
  return {
    error: {
      code: err.code,
      message: err.message,
      request_id: requestId,
      ...(err.details ? { details: err.details } : {}),
    },
  };
}
