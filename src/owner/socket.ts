import { chmodSync, existsSync, rmSync } from "node:fs";
import { createConnection, createServer, type Server } from "node:net";
import { join } from "node:path";
import { AppError, ERROR_STATUS, type ErrorCode, type ErrorDetail } from "../errors.js";

/** Unix socket paths are limited by sockaddr_un (108 bytes including the terminating NUL). */
export const MAX_SOCKET_PATH_BYTES = 107;

export function ownerSocketPath(dataDir: string): string {
  return join(dataDir, "cts.sock");
}

export function checkSocketPath(path: string): string | null {
  const bytes = Buffer.byteLength(path);
  return bytes > MAX_SOCKET_PATH_BYTES
    ? `The owner socket path ${path} is ${bytes} bytes; Unix sockets allow at most ${MAX_SOCKET_PATH_BYTES}. Use a shorter CTS_DATA_DIR.`
    : null;
}

interface Request {
  command: string;
  args?: unknown;
}

type Response =
  | { ok: true; result: unknown }
  | { ok: false; error: { code: string; message: string; details?: ErrorDetail[] } };

/**
 * The embedded server's owner channel: one JSON request per connection, one JSON answer. Only the
 * data dir's owner can reach it (mode 0600 inside the data dir); it is never exposed on TCP.
 */
export async function listenOwnerSocket(
  path: string,
  handle: (command: string, args: unknown) => Promise<unknown>,
): Promise<Server> {
  const problem = checkSocketPath(path);
  if (problem) throw new Error(problem);
  // We hold the data-dir lock, so a socket file left here belongs to a dead process.
  if (existsSync(path)) rmSync(path, { force: true });
  const server = createServer((socket) => {
    let buffer = "";
    socket.setEncoding("utf8");
    socket.on("data", async (chunk) => {
      buffer += chunk;
      const newline = buffer.indexOf("\n");
      if (newline < 0) return;
      let response: Response;
      try {
        const request = JSON.parse(buffer.slice(0, newline)) as Request;
        response = { ok: true, result: await handle(request.command, request.args) };
      } catch (err) {
        response = { ok: false, error: errorOf(err) };
      }
      socket.end(`${JSON.stringify(response)}\n`);
    });
    socket.on("error", () => {});
  });
  const previousUmask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(path, () => resolve());
    });
  } finally {
    process.umask(previousUmask);
  }
  chmodSync(path, 0o600);
  return server;
}

/** An owner command's failure as the socket carries it: an AppError whole, anything else by its message. */
function errorOf(err: unknown): { code: string; message: string; details?: ErrorDetail[] } {
  if (!(err instanceof AppError)) return { code: "error", message: (err as Error).message };
  return { code: err.code, message: err.message, ...(err.details && { details: err.details }) };
}

/** The failure a running server answered with, as the error the same command run here would throw. */
function rebuilt(error: { code: string; message: string; details?: ErrorDetail[] }): Error {
  if (!Object.hasOwn(ERROR_STATUS, error.code)) return Object.assign(new Error(error.message), { code: error.code });
  return new AppError(error.code as ErrorCode, error.message, error.details);
}

/** Sends one owner command to a running embedded server. */
export function sendOwnerCommand(path: string, command: string, args: unknown, timeoutMs = 30_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let buffer = "";
    socket.setEncoding("utf8");
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(new Error("The server did not answer on its owner socket in time")),
    );
    socket.on("connect", () => socket.write(`${JSON.stringify({ command, args })}\n`));
    socket.on("data", (chunk) => {
      buffer += chunk;
    });
    socket.on("error", (err) =>
      reject(new Error(`Cannot reach the running server's owner socket ${path}: ${err.message}`)),
    );
    socket.on("end", () => {
      try {
        const response = JSON.parse(buffer) as Response;
        if (response.ok) resolve(response.result);
        else reject(rebuilt(response.error));
      } catch {
        reject(new Error("The server's owner socket sent an unreadable answer"));
      }
    });
  });
}
