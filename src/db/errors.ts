import { AppError } from "../errors.js";

/** PostgreSQL error codes both drivers report (pg and PGlite alike expose `code` and `constraint`). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code !== "23505") return false;
  return constraint === undefined || e.constraint === constraint || (e.message ?? "").includes(constraint);
}

/** Errors that mean the database cannot be reached (→ 503 `unavailable`, not a 500). */
export function isConnectionError(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  const code = e?.code ?? "";
  return (
    ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EPIPE", "57P01", "57P02", "57P03", "53300"].includes(
      code,
    ) ||
    code.startsWith("08") ||
    /Connection terminated|connection timeout|Client has encountered a connection error|PGlite is closed|is not currently accepting connections|Client was closed and is not queryable/i.test(
      e?.message ?? "",
    )
  );
}

/**
 * pg-pool waited its connect timeout for a free client: every connection is busy (a hot spot holding
 * them, say). The database is up, so this is no outage (the connection gate stays closed), but the
 * request could not run: 503 with Retry-After, never a 500.
 */
export function isPoolBusy(err: unknown): boolean {
  return /timeout exceeded when trying to connect/i.test((err as { message?: string })?.message ?? "");
}

/** Why the database cannot be reached, for /readyz and the logs: a few words, never an address or a name. */
export function describeConnectionError(err: unknown): string {
  const e = err as { code?: string; message?: string; reason?: string };
  if (typeof e?.reason === "string") return e.reason;
  const code = e?.code ?? "";
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ETIMEDOUT" || /timeout/i.test(e?.message ?? "")) return "connection timed out";
  if (code === "ENOTFOUND") return "host not found";
  if (code === "57P01") return "the server terminated the connection (administrator command)";
  if (code === "57P03") return "the server is starting up or shutting down";
  if (code === "53300") return "too many connections";
  if (/is not currently accepting connections/.test(e?.message ?? ""))
    return "the database is not accepting connections";
  return code ? `connection lost (${code})` : "connection lost";
}

/** Seconds a client should wait before retrying after `err` (≥ 1). */
export function retryAfterSeconds(err: unknown): number {
  const seconds = (err as { retryAfterSeconds?: number })?.retryAfterSeconds;
  return typeof seconds === "number" && seconds >= 1 ? seconds : 1;
}

/**
 * Anything a service threw → the contract's error, for REST and MCP alike: an AppError as it is, an
 * unreachable database or a pool with no free connection → 503 `unavailable`, anything else is a bug → 500 `internal_error`, which `onBug`
 * hears (the client sees only the request id to quote).
 */
export function toAppError(err: unknown, requestId: string, onBug?: (err: unknown) => void): AppError {
  if (err instanceof AppError) return err;
  if (isConnectionError(err)) {
    return new AppError("unavailable", "The database is unavailable; retry shortly", undefined, {
      "Retry-After": String(retryAfterSeconds(err)),
    });
  }
  if (isPoolBusy(err)) {
    return new AppError("unavailable", "Every database connection is busy; retry shortly", undefined, {
      "Retry-After": "1",
    });
  }
  onBug?.(err);
  return new AppError("internal_error", `Internal error; quote request id ${requestId} when reporting it`);
}
