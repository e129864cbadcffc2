import type { LightMyRequestResponse } from "fastify";
import { bearer, type TestApp } from "../harness.js";

/** POST /imports/{what} with a CSV body (text/csv unless `headers` say otherwise) under a fresh key of `scope`. */
export async function postCsv(
  t: TestApp,
  what: "deals" | "users",
  csv: string | Buffer,
  options: { query?: string; headers?: Record<string, string>; key?: string } = {},
): Promise<LightMyRequestResponse> {
  const key = options.key ?? (await t.key("write")).key;
  return t.app.inject({
    method: "POST",
    url: `/api/v1/imports/${what}${options.query ? `?${options.query}` : ""}`,
    headers: { ...bearer(key), "content-type": "text/csv", ...options.headers },
    payload: csv,
  });
}

/** Lines joined as a file: CRLF unless told. */
export const csvOf = (lines: string[], eol = "\r\n") => `${lines.join(eol)}${eol}`;
