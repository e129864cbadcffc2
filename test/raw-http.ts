import { type IncomingHttpHeaders, request } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestApp } from "./harness.js";

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Listens on a free loopback port; returns the port. */
export async function listenPort(t: TestApp): Promise<number> {
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  return (t.app.server.address() as AddressInfo).port;
}

/**
 * One request over a real socket, the request target sent exactly as given (absolute-form, dot
 * segments, `//`, percent-encoding) and array header values sent as repeated header lines: what
 * `inject` would normalise or merge.
 */
export function rawRequest(
  port: number,
  options: {
    method: string;
    target: string;
    headers?: Record<string, string | string[]>;
    /** Header lines as `rawHeaders` lists them (name, value, name, value…), each name's case kept. */
    rawHeaders?: string[];
    body?: string;
  },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: "127.0.0.1",
      port,
      method: options.method,
      path: options.target,
      agent: false,
      ...(options.rawHeaders ? { headers: options.rawHeaders as never } : {}),
    });
    for (const [name, value] of Object.entries(options.headers ?? {})) req.setHeader(name, value);
    if (options.body !== undefined) {
      if (!req.hasHeader("content-type")) req.setHeader("content-type", "application/json");
      req.setHeader("content-length", Buffer.byteLength(options.body));
    }
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(options.body);
  });
}
