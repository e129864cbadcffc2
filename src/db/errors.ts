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
    /Connection terminated|connection timeout|Client has encountered a connection error|PGlite is closed/i.test(
      e?.message ?? "",
    )
  );
}
