import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { toAppError } from "../db/errors.js";
import { AppError, type ErrorCode, type ErrorDetail, errorBody } from "../errors.js";

/** Fields a client may read but never write (API.md §2): named as read-only, not as unknown. */
const READ_ONLY_FIELDS = new Set([
  "id",
  "total_commission",
  "total_commission_scope",
  "amount_scope",
  "scope_user_id",
  "people",
  "commissions",
  "version",
  "created_at",
  "updated_at",
  "approved_at",
  "paid_at",
  "status",
  "mcp_access",
  "environment",
  "last_used_at",
  "revoked_at",
  "replaces",
  "explanation",
  "rejection_reason",
  "recalculation_job_id",
]);

const PART_NAMES: Record<string, string> = { body: "body", querystring: "query", params: "path" };

interface ZodIssueLike {
  instancePath: string;
  message: string;
  keyword: string;
  params: { keys?: string[] };
}

/** zod issues → `details`, one per problem; unknown keys are named one by one, repeated query parameters as such. */
function validationDetails(issues: ZodIssueLike[], part: string | undefined, query: unknown): ErrorDetail[] {
  const prefix = (path: string) =>
    path
      .replace(/^\//, "")
      .replaceAll("/", ".")
      .replace(/\.(\d+)(?=\.|$)/g, "[$1]");
  return issues.flatMap((issue): ErrorDetail[] => {
    const base = prefix(issue.instancePath);
    if (issue.keyword === "unrecognized_keys") {
      return (issue.params.keys ?? []).map((key) => {
        const param = base ? `${base}.${key}` : key;
        if (part === "body" && READ_ONLY_FIELDS.has(key)) return { param, message: "is read-only and cannot be set" };
        return { param, message: `is not a recognized ${part === "querystring" ? "query parameter" : "field"}` };
      });
    }
    // A list parameter takes the array (http/input-fields' commaList): its own check speaks for it.
    const repeated = Array.isArray((query as Record<string, unknown> | null)?.[base]);
    if (part === "querystring" && repeated && issue.keyword !== "custom") {
      return [{ param: base, message: "is given twice" }];
    }
    return [{ param: base || PART_NAMES[part ?? ""] || "request", message: issue.message }];
  });
}

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: "payload_too_large",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "unsupported_media_type",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "bad_request",
  FST_ERR_CTP_EMPTY_JSON_BODY: "bad_request",
  FST_ERR_CTP_INVALID_JSON_BODY: "bad_request",
};

const FASTIFY_MESSAGES: Partial<Record<ErrorCode, string>> = {
  payload_too_large: "Request body is larger than 1 MiB",
  unsupported_media_type: "Request bodies must be JSON: send Content-Type: application/json",
};

/** What Fastify itself throws (validation, body parsing, shutting down) → the contract's error; else undefined. */
function frameworkError(err: unknown, req: FastifyRequest): AppError | undefined {
  if (err instanceof AppError) return undefined;
  if (hasZodFastifySchemaValidationErrors(err)) {
    const details = validationDetails(err.validation as unknown as ZodIssueLike[], err.validationContext, req.query);
    const summary = details.map((d) => `${d.param} ${d.message}`).join("; ");
    return new AppError("validation_error", `Invalid request: ${summary}`, details);
  }
  const fe = err as FastifyError;
  const mapped = fe.code ? FASTIFY_CODES[fe.code] : undefined;
  if (mapped === "payload_too_large" && req.routeOptions.config?.bodyTooLarge) {
    return new AppError(mapped, req.routeOptions.config.bodyTooLarge);
  }
  if (mapped) return new AppError(mapped, FASTIFY_MESSAGES[mapped] ?? fe.message);
  if (fe.statusCode === 503)
    return new AppError("unavailable", "The server is shutting down; retry on another instance");
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    req.log.debug({ err }, "client error from the framework");
    return new AppError("bad_request", fe.message);
  }
  return undefined;
}

/** Any error → the contract's body. Nothing internal (stack, SQL) ever reaches the client. */
export function handleError(err: unknown, req: FastifyRequest, reply: FastifyReply) {
  const appError = frameworkError(err, req) ?? toAppError(err, req.id);
  if (appError.status >= 500) req.log.error({ err, request_id: req.id }, "request failed");
  if (appError.headers) reply.headers(appError.headers);
  return reply.code(appError.status).type("application/json; charset=utf-8").send(errorBody(appError, req.id));
}
