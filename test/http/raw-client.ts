import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { expect } from "vitest";
import { parseErrorBody } from "../factories.js";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes `bytes` on a fresh connection and reads until the server closes it (bounded by `boundMs`,
 * a test failure rather than a timing assert). Returns the first response, or null if none came.
 */
export function rawExchange(port: number, bytes: string | Buffer, boundMs = 15_000): Promise<RawResponse | null> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const bound = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server held the connection for over ${boundMs} ms`));
    }, boundMs);
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", () => {}); // a reset after the response is fine: the response is what we check
    socket.on("close", () => {
      clearTimeout(bound);
      resolve(parseResponse(Buffer.concat(chunks).toString("latin1")));
    });
    socket.write(bytes);
  });
}

function parseResponse(text: string): RawResponse | null {
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const [statusLine = "", ...lines] = text.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers["content-length"] ?? 0);
  const body = Buffer.from(text.slice(end + 4), "latin1")
    .subarray(0, length)
    .toString("utf8");
  return { status: Number(statusLine.split(" ")[1]), headers, body };
}

/** The contract error body, with its request id equal to the Request-Id header. */
export function contractError(res: RawResponse | null, status: number, code: string) {
  expect(res, "no response was written").not.toBeNull();
  expect(res!.status, res!.body).toBe(status);
  expect(res!.headers["content-type"]).toBe("application/json; charset=utf-8");
  expect(res!.headers["request-id"]).toMatch(/^req_[0-9A-Z]{26}$/);
  const error = parseErrorBody(JSON.parse(res!.body));
  expect(error.code).toBe(code);
  expect(error.request_id).toBe(res!.headers["request-id"]);
  expect(error.message.length).toBeGreaterThan(0);
  return error;
}

/** Streams `size` bytes as a node:http client does (chunk by chunk, no Expect: 100-continue). */
export function streamBody(
  port: number,
  path: string,
  size: number,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method: "POST", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
      );
    });
    req.on("error", reject);
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    const write = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", write);
      }
      req.end();
    };
    write();
  });
}
